-- 020: a seat no longer may act once its table is over. The end of a
-- party clears `acting` (store_seats_set_acting with nobody to act), but a
-- table closed for idleness (STMT_TABLE_CLOSE_IDLE) ended with its acting
-- seats as they were, so the count of the tables waiting for a user (the
-- tab title of every page) had to look each acting seat's table up to skip
-- finished ones: 16k of a table page's instructions. The trigger that
-- marks the seats of an ended table done now clears acting and in_window
-- as well, and the count reads the partial index seats_acting alone.
UPDATE seats SET acting = 0, in_window = 0 WHERE done = 1 AND (acting = 1 OR in_window = 1);

DROP TRIGGER seats_done;
CREATE TRIGGER seats_done AFTER UPDATE OF status ON tables
WHEN (NEW.status = 2) IS NOT (OLD.status = 2) BEGIN
	UPDATE seats SET done = (NEW.status = 2),
		acting = CASE WHEN NEW.status = 2 THEN 0 ELSE acting END,
		in_window = CASE WHEN NEW.status = 2 THEN 0 ELSE in_window END
	WHERE table_id = NEW.id;
END;

PRAGMA user_version = 20;
