-- Gouji store, schema version 4: a stored state of each series' live engine, so that a
-- restart resumes a table from it and the actions logged after it instead of replaying the
-- whole series (data/snapshots.py). The log stays the truth: a snapshot is used only when
-- it was written by the same engine (engine, a fingerprint of its code) for the series'
-- latest deal, and anything wrong with it means a replay of the log instead.
--   series_id   one snapshot per series, replaced as play goes on
--   game_id     the deal it was taken in
--   idx         how many log entries of that deal it includes (the next one is idx)
--   engine      the fingerprint of the engine code that wrote it
--   state       the engine's series, serialized (zlib-compressed pickle)

CREATE TABLE snapshots (
    series_id   INTEGER PRIMARY KEY REFERENCES series (id) ON DELETE CASCADE,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL CHECK (idx >= 0),
    engine      TEXT    NOT NULL,
    state       BLOB    NOT NULL,
    created_at  REAL    NOT NULL
);
