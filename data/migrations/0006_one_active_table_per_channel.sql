-- Gouji store, schema version 6: a channel holds at most one active (lobby or playing)
-- table, and the database itself says so. Before, two processes (or one that had dropped a
-- table from memory) could open a second table in a channel; of such tables the one changed
-- last stays active and the others are set aside as broken, with the reason.
--   tables_one_active_per_channel   unique (guild_id, channel_id) of the active tables

UPDATE tables SET status = 'broken',
    broken_reason = 'a channel holds one active table (schema 6): another table of this channel was changed later'
WHERE status IN ('lobby', 'playing') AND EXISTS (
    SELECT 1 FROM tables AS other
    WHERE other.guild_id = tables.guild_id AND other.channel_id = tables.channel_id
      AND other.status IN ('lobby', 'playing') AND other.id <> tables.id
      AND (other.updated_at > tables.updated_at
           OR (other.updated_at = tables.updated_at AND other.id > tables.id))
);
CREATE UNIQUE INDEX tables_one_active_per_channel ON tables (guild_id, channel_id)
    WHERE status IN ('lobby', 'playing');
