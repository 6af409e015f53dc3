-- Gouji store, schema version 3: which process acts on a table, for a bot split into shard
-- processes that share one database. A process claims the active tables of its shards; a
-- claim lapses at owner_until unless renewed, and only its holder may append to the table's
-- logs (data/claims.py).
--   tables.owner        the process holding the claim (its name), NULL: unclaimed
--   tables.owner_until  unix time the claim lapses unless renewed

ALTER TABLE tables ADD COLUMN owner TEXT;
ALTER TABLE tables ADD COLUMN owner_until REAL;
CREATE INDEX tables_by_owner ON tables (owner) WHERE owner IS NOT NULL;
