-- Gouji store, schema version 5: seats may hold the expert AI (普通 / normal) besides the hint
-- (简单 / easy) and the strong search (困难 / hard).

ALTER TABLE seats DROP CONSTRAINT seats_ai_kind_check;
ALTER TABLE seats ADD CONSTRAINT seats_ai_kind_check
    CHECK (ai_kind IN ('hint', 'expert', 'strong'));
