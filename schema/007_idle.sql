-- 007: a table nobody moved at for too long is closed with the result of
-- its finished parties; closed_idle says so on its page.
ALTER TABLE tables ADD COLUMN closed_idle INTEGER NOT NULL DEFAULT 0 CHECK (closed_idle IN (0, 1));
-- The sweep looks for running tables with a passed deadline.
CREATE INDEX tables_deadline ON tables(status, next_deadline);

PRAGMA user_version = 7;
