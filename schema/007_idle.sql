-- 007: a table nobody moved at for too long is closed with the result of
-- its finished parties; closed_idle says so on its page. A seat a bot
-- holds for nobody (a bot's from the start, or one whose person resigned or
-- was replaced) may be claimed by a new player: claimed_by takes it over
-- when the next party is dealt.
ALTER TABLE tables ADD COLUMN closed_idle INTEGER NOT NULL DEFAULT 0 CHECK (closed_idle IN (0, 1));
ALTER TABLE seats ADD COLUMN claimed_by INTEGER REFERENCES users(id);
-- The sweep looks for running tables with a passed deadline.
CREATE INDEX tables_deadline ON tables(status, next_deadline);

PRAGMA user_version = 7;
