-- Gouji store, schema version 4, PostgreSQL: as ../0004_snapshots.sql.

CREATE TABLE snapshots (
    series_id   BIGINT PRIMARY KEY REFERENCES series (id) ON DELETE CASCADE,
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL CHECK (idx >= 0),
    engine      TEXT NOT NULL,
    state       BYTEA NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL
);
