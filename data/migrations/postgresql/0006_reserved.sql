-- Reserved: schema version 6 belongs to the s4-trust branch's migration. This file only keeps
-- the numbering whole on the s4-ratings branch (whose migration is 0007); the merge drops it
-- for that branch's 0006, in both directories. It changes nothing.
SELECT 1;
