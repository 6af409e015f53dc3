-- Gouji store, schema version 8, PostgreSQL: as ../0008_instances.sql.

CREATE TABLE instances (
    name TEXT PRIMARY KEY,
    epoch BIGINT NOT NULL
);
ALTER TABLE tables ADD COLUMN owner_instance TEXT;
ALTER TABLE tables ADD COLUMN owner_epoch BIGINT;
