-- Gouji store, schema version 2, PostgreSQL: as ../0002_message_and_seat_flags.sql.

ALTER TABLE tables ADD COLUMN message_id BIGINT;
ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0);
ALTER TABLE seats ADD COLUMN dm_refused INTEGER NOT NULL DEFAULT 0 CHECK (dm_refused IN (0, 1));

CREATE INDEX profiles_leaderboard ON profiles (guild_id, score DESC, games DESC, user_id);
CREATE INDEX tables_by_message ON tables (message_id) WHERE message_id IS NOT NULL;
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;
