-- 021: the pause after a party (docs/storage.md, "The end of a party") asks
-- every seat that has not sent "weiter" yet to continue. Such a seat is
-- `acting` now (the tab title counts it, "Meine Tische" marks it), and
-- `to_continue` tells it from a turn or a window, kept by the same
-- statement after every step (store_seats_set_acting, from play_asked()).
-- Rows from before have 0: a table pausing at the upgrade shows nothing
-- there until its next step.
ALTER TABLE seats ADD COLUMN to_continue INTEGER NOT NULL DEFAULT 0
	CHECK (to_continue IN (0, 1));

-- an ended table clears it with acting and in_window (020)
DROP TRIGGER seats_done;
CREATE TRIGGER seats_done AFTER UPDATE OF status ON tables
WHEN (NEW.status = 2) IS NOT (OLD.status = 2) BEGIN
	UPDATE seats SET done = (NEW.status = 2),
		acting = CASE WHEN NEW.status = 2 THEN 0 ELSE acting END,
		in_window = CASE WHEN NEW.status = 2 THEN 0 ELSE in_window END,
		to_continue = CASE WHEN NEW.status = 2 THEN 0 ELSE to_continue END
	WHERE table_id = NEW.id;
END;

PRAGMA user_version = 21;
