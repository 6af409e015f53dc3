-- Gouji store, schema version 2: what the bot needs to keep a table alive across restarts.
--   tables.message_id   the Discord message that shows the table, edited in place
--   seats.timeouts      turns timed out in a row (reset when the player acts)
--   seats.dm_refused    1 when the player's DMs are closed to the bot (hands shown otherwise)
-- and indexes for the leaderboard, for finding a table by its message and by a seated user.

ALTER TABLE tables ADD COLUMN message_id INTEGER;
ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0 CHECK (timeouts >= 0);
ALTER TABLE seats ADD COLUMN dm_refused INTEGER NOT NULL DEFAULT 0 CHECK (dm_refused IN (0, 1));

CREATE INDEX profiles_leaderboard ON profiles (guild_id, score DESC, games DESC, user_id);
CREATE INDEX tables_by_message ON tables (message_id) WHERE message_id IS NOT NULL;
CREATE INDEX seats_by_user ON seats (user_id) WHERE user_id IS NOT NULL;
