-- 019: whether a seat's table is over (status 2), kept by a trigger, and an
-- index by user in the order "Meine Tische" lists them: the open and
-- running tables first, newest first, then the finished ones. The listing
-- sorted every table the user ever sat at to show thirty (1.4M
-- instructions at 200 tables, growing with the history); with the index it
-- reads at most thirty entries of each kind.
ALTER TABLE seats ADD COLUMN done INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1));
UPDATE seats SET done = 1 WHERE table_id IN (SELECT id FROM tables WHERE status = 2);
CREATE INDEX seats_user_done ON seats(user_id, done, table_id);

-- a table ends once (a seat is only ever taken while it is open)
CREATE TRIGGER seats_done AFTER UPDATE OF status ON tables
WHEN (NEW.status = 2) IS NOT (OLD.status = 2) BEGIN
	UPDATE seats SET done = (NEW.status = 2) WHERE table_id = NEW.id;
END;

PRAGMA user_version = 19;
