-- Gouji store, schema version 9: tournaments (比赛, docs/tournaments.md, data/tournaments.py).
-- An event is data like a table: any process rebuilds it from these rows and goes on where
-- it stood. Its writes are idempotent (the first plan of a round and the first result of a
-- table stay; a second writer reads them back), so two processes never count a game twice.
--   tournaments         the event: its server, the channel it posts in, who organised it,
--                       its settings (JSON, engine/tournament/model.py Config), status
--                       (open: taking entries; running; paused; finished; ended early),
--                       the round it is at (0 before the first) and when the next step
--                       is due at the latest (the next round, or the no-show deadline)
--   tournament_players  who entered, when, and the round after which they left (NULL: in)
--   tournament_rounds   each round's seating (JSON RoundPlan) and when it was seated
--   tournament_tables   each table of a round: the game table it plays at (tables.id,
--                       once opened), its status (seated, playing, finished, skipped) and
--                       its players' results (JSON [SeatResult], once, never replaced)

CREATE TABLE tournaments (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    organiser_id    INTEGER NOT NULL,
    config          TEXT    NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'open'
                    CHECK (status IN ('open', 'running', 'paused', 'finished', 'ended')),
    round           INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),
    due_at          REAL,
    created_at      REAL    NOT NULL,
    updated_at      REAL    NOT NULL
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);

CREATE TABLE tournament_players (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id         INTEGER NOT NULL,
    joined_at       REAL    NOT NULL,
    left_after      INTEGER CHECK (left_after >= 0),
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;

CREATE TABLE tournament_rounds (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number          INTEGER NOT NULL CHECK (number >= 1),
    plan            TEXT    NOT NULL,
    seated_at       REAL    NOT NULL,
    PRIMARY KEY (tournament_id, number)
) WITHOUT ROWID;

CREATE TABLE tournament_tables (
    tournament_id   INTEGER NOT NULL,
    round           INTEGER NOT NULL,
    number          INTEGER NOT NULL CHECK (number >= 1),
    table_id        INTEGER REFERENCES tables (id),
    status          TEXT    NOT NULL DEFAULT 'seated'
                    CHECK (status IN ('seated', 'playing', 'finished', 'skipped')),
    result          TEXT,
    updated_at      REAL    NOT NULL,
    PRIMARY KEY (tournament_id, round, number),
    FOREIGN KEY (tournament_id, round) REFERENCES tournament_rounds (tournament_id, number)
        ON DELETE CASCADE,
    CHECK ((status = 'finished') = (result IS NOT NULL))
) WITHOUT ROWID;
CREATE INDEX tournament_tables_by_table ON tournament_tables (table_id);
