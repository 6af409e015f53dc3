-- Gouji store, schema version 10, PostgreSQL: as ../0010_seasons.sql.

CREATE TABLE seasons (
    guild_id    BIGINT  NOT NULL,
    number      INTEGER NOT NULL CHECK (number >= 1),
    first_seq   BIGINT  NOT NULL CHECK (first_seq >= 1),
    started_at  DOUBLE PRECISION NOT NULL,
    ended_at    DOUBLE PRECISION,
    board       TEXT,
    PRIMARY KEY (guild_id, number),
    CHECK ((ended_at IS NULL) = (board IS NULL))
);
CREATE UNIQUE INDEX seasons_current ON seasons (guild_id) WHERE ended_at IS NULL;

CREATE TABLE season_settings (
    guild_id    BIGINT  PRIMARY KEY,
    monthly     INTEGER NOT NULL DEFAULT 0 CHECK (monthly IN (0, 1))
);

INSERT INTO seasons (guild_id, number, first_seq, started_at)
SELECT guild_id, 1, 1, MIN(applied_at) FROM game_results GROUP BY guild_id;
