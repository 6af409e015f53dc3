-- Gouji store, schema version 3, PostgreSQL: as ../0003_table_owner.sql.

ALTER TABLE tables ADD COLUMN owner TEXT;
ALTER TABLE tables ADD COLUMN owner_until DOUBLE PRECISION;
CREATE INDEX tables_by_owner ON tables (owner) WHERE owner IS NOT NULL;
