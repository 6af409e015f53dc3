-- Gouji store, schema version 10: seasons (data/seasons.py, docs/tournaments.md "Seasons").
-- A server's season is a run of its game results: season n holds the results whose `seq`
-- (game_results, version 7: the order results were recorded in on the server) is from its
-- `first_seq` up to the next season's. The figures of a season (points, games, places, skill
-- ratings) are folded from those results as the all-time ones are from all of them, which
-- stay as they were. When a season ends its final board is kept (`board`, JSON).
--   seasons          each server's seasons: number, first_seq, when it started and ended
--                    (NULL: the current one), the final board once it ended
--   season_settings  whether a new season starts by itself at each calendar month (UTC)
-- Every server with results today gets season 1 holding all of them: its figures are
-- exactly the all-time ones, every existing rating kept as the first season's.

CREATE TABLE seasons (
    guild_id    INTEGER NOT NULL,
    number      INTEGER NOT NULL CHECK (number >= 1),
    first_seq   INTEGER NOT NULL CHECK (first_seq >= 1),
    started_at  REAL    NOT NULL,
    ended_at    REAL,
    board       TEXT,
    PRIMARY KEY (guild_id, number),
    CHECK ((ended_at IS NULL) = (board IS NULL))
) WITHOUT ROWID;
CREATE UNIQUE INDEX seasons_current ON seasons (guild_id) WHERE ended_at IS NULL;

CREATE TABLE season_settings (
    guild_id    INTEGER PRIMARY KEY,
    monthly     INTEGER NOT NULL DEFAULT 0 CHECK (monthly IN (0, 1))
);

INSERT INTO seasons (guild_id, number, first_seq, started_at)
SELECT guild_id, 1, 1, MIN(applied_at) FROM game_results GROUP BY guild_id;
