-- Gouji store, schema version 1.
-- Applied by data/migrations.py inside one transaction, which then sets PRAGMA user_version.
-- Times are unix seconds (REAL). JSON columns hold UTF-8 JSON text.

-- Per-server settings.
CREATE TABLE guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    language        TEXT    NOT NULL DEFAULT 'zh',
    table_defaults  TEXT    NOT NULL DEFAULT '{}',      -- JSON object: table options
    updated_at      REAL    NOT NULL
);

-- Channels where tables may open (none listed = any channel).
CREATE TABLE guild_channels (
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, channel_id)
) WITHOUT ROWID;

-- One row per table (牌桌).
CREATE TABLE tables (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    creator_id      INTEGER NOT NULL,
    options         TEXT    NOT NULL DEFAULT '{}',      -- JSON object
    status          TEXT    NOT NULL DEFAULT 'lobby'
                    CHECK (status IN ('lobby', 'playing', 'finished', 'ended', 'broken')),
    broken_reason   TEXT,
    turn_deadline   REAL,                               -- unix time, NULL when no clock runs
    created_at      REAL    NOT NULL,
    updated_at      REAL    NOT NULL,
    CHECK ((status = 'broken') = (broken_reason IS NOT NULL))
);
CREATE INDEX tables_by_status ON tables (status);
CREATE INDEX tables_by_channel ON tables (guild_id, channel_id);

-- Six rows per table, seats 0-5. Both user_id and ai_kind NULL: an empty seat.
-- user_id NULL and ai_kind set: an AI player. A user with ai_kind set: the AI that plays for
-- them when standin = 1 (托管).
CREATE TABLE seats (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    user_id     INTEGER,
    ai_kind     TEXT    CHECK (ai_kind IN ('hint', 'strong')),
    standin     INTEGER NOT NULL DEFAULT 0 CHECK (standin IN (0, 1)),
    PRIMARY KEY (table_id, seat),
    UNIQUE (table_id, user_id),
    CHECK (standin = 0 OR (user_id IS NOT NULL AND ai_kind IS NOT NULL))
) WITHOUT ROWID;

-- A series of games at one table (a tribute series of five, or a single game).
CREATE TABLE series (
    id          INTEGER PRIMARY KEY,
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL CHECK (number >= 1),
    options     TEXT    NOT NULL DEFAULT '{}',          -- JSON object, fixed for the series
    status      TEXT    NOT NULL DEFAULT 'playing'
                CHECK (status IN ('playing', 'finished', 'abandoned')),
    totals      TEXT,                                   -- JSON: final seat totals, once over
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL,
    UNIQUE (table_id, number)
);

-- One row per deal. A void deal (two or more revolts) keeps its row with status 'void' and
-- the redeal of the same game number gets the next deal number.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    series_id   INTEGER NOT NULL REFERENCES series (id) ON DELETE CASCADE,
    number      INTEGER NOT NULL CHECK (number >= 1),
    deal        INTEGER NOT NULL DEFAULT 1 CHECK (deal >= 1),
    seed        INTEGER NOT NULL,
    hands       TEXT    NOT NULL,                       -- JSON: six strings, as dealt, with suits
    status      TEXT    NOT NULL DEFAULT 'playing'
                CHECK (status IN ('playing', 'finished', 'void', 'abandoned')),
    result      TEXT,                                   -- JSON: places, points, tribute …
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL,
    UNIQUE (series_id, number, deal)
);

-- The append-only action log of each deal: "SEAT VERB [CARDS]", idx 0, 1, 2, … with no gap.
CREATE TABLE actions (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL CHECK (idx >= 0),
    action      TEXT    NOT NULL,
    created_at  REAL    NOT NULL,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;

-- Player profiles, per server.
CREATE TABLE profiles (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    score       INTEGER NOT NULL DEFAULT 0,
    games       INTEGER NOT NULL DEFAULT 0,
    place_1     INTEGER NOT NULL DEFAULT 0,
    place_2     INTEGER NOT NULL DEFAULT 0,
    place_3     INTEGER NOT NULL DEFAULT 0,
    place_4     INTEGER NOT NULL DEFAULT 0,
    place_5     INTEGER NOT NULL DEFAULT 0,
    place_6     INTEGER NOT NULL DEFAULT 0,
    opens       INTEGER NOT NULL DEFAULT 0,
    burns       INTEGER NOT NULL DEFAULT 0,
    stifles     INTEGER NOT NULL DEFAULT 0,
    leaves      INTEGER NOT NULL DEFAULT 0,
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;

-- The marker that a finished game's result was applied to the profiles (exactly once).
CREATE TABLE game_results (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    updates     TEXT    NOT NULL,                       -- JSON: the per-user changes applied
    applied_at  REAL    NOT NULL
);
