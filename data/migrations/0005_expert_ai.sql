-- Gouji store, schema version 5: seats may hold the expert AI (普通 / normal) besides the hint
-- (简单 / easy) and the strong search (困难 / hard). SQLite cannot change a CHECK in place, so
-- the seats table is rebuilt with the same rows and index.

CREATE TABLE seats_v5 (
    table_id    INTEGER NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
    user_id     INTEGER,
    ai_kind     TEXT    CHECK (ai_kind IN ('hint', 'expert', 'strong')),
    standin     INTEGER NOT NULL DEFAULT 0 CHECK (standin IN (0, 1)),
    timeouts    INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0),
    dm_refused  INTEGER NOT NULL DEFAULT 0 CHECK (dm_refused IN (0, 1)),
    PRIMARY KEY (table_id, seat),
    UNIQUE (table_id, user_id),
    CHECK (standin = 0 OR (user_id IS NOT NULL AND ai_kind IS NOT NULL))
) WITHOUT ROWID;
INSERT INTO seats_v5 (table_id, seat, user_id, ai_kind, standin, timeouts, dm_refused)
    SELECT table_id, seat, user_id, ai_kind, standin, timeouts, dm_refused FROM seats;
DROP TABLE seats;
ALTER TABLE seats_v5 RENAME TO seats;
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;
