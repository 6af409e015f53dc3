-- Gouji store, schema version 8: a process's stable identity and its incarnations, so that a
-- restarted process takes its own tables back at once while the incarnation before it stays
-- fenced (data/claims.py).
--   instances.name        a process instance: what it serves and where (GOUJI_INSTANCE)
--   instances.epoch       its latest incarnation (1, 2, 3 … one more at each start)
--   tables.owner_instance the instance of the incarnation holding the claim, NULL: none
--   tables.owner_epoch    that incarnation's epoch: a later one of the same instance takes
--                         the claim without waiting for its lease

CREATE TABLE instances (
    name TEXT PRIMARY KEY,
    epoch INTEGER NOT NULL
);
ALTER TABLE tables ADD COLUMN owner_instance TEXT;
ALTER TABLE tables ADD COLUMN owner_epoch INTEGER;
