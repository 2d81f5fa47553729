-- 022: whether a person took the seat over during the match by claiming
-- it (docs/rulings.md, "Every game: ratings"): 0 no; 1 from a person who
-- had given up; 2 from a bot that held it from the start. Such a seat is
-- unrated for the claimer, and a match whose seat a bot held from the
-- start stays unrated, as it was before the claim.
ALTER TABLE seats ADD COLUMN claimed INTEGER NOT NULL DEFAULT 0;

PRAGMA user_version = 22;
