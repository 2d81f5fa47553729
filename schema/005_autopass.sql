-- 005: a person's standing choice for a table, made in advance: pass every
-- window (a snap, a reaction) automatically. It depends on nothing in the
-- hand, so it tells nobody anything; a table over days then does not wait a
-- window's whole deadline for someone who never answers windows.
ALTER TABLE seats ADD COLUMN autopass INTEGER NOT NULL DEFAULT 0 CHECK (autopass IN (0, 1));

PRAGMA user_version = 5;
