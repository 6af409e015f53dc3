-- Gouji store, schema version 2: what the bot needs to keep a table alive across restarts.
--   tables.message_id   the Discord message that shows the table, edited in place
--   seats.timeouts      turns timed out in a row (reset when the player acts)
--   seats.dm_refused    1 when the player's DMs are closed to the bot (hands shown otherwise)
-- and an index that serves the leaderboard query.

ALTER TABLE tables ADD COLUMN message_id INTEGER;
ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0);
ALTER TABLE seats ADD COLUMN dm_refused INTEGER NOT NULL DEFAULT 0 CHECK (dm_refused IN (0, 1));

CREATE INDEX profiles_leaderboard ON profiles (guild_id, score DESC, games DESC, user_id);
