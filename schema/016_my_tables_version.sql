-- 016: what the /me poll reads, kept per user, so that the poll is two
-- indexed reads whatever the number of the user's tables. Before, it summed
-- the versions of all of the user's tables and their invitations, and took
-- the earliest deadline of the running ones: 13M instructions for a user at
-- a few thousand tables, 67k for one at fourteen.
--
-- users.tables_version grows whenever something /me shows may have changed:
-- a table where the user sits, or to which they are invited, changes its
-- public version or its status; the user takes or leaves a seat; an
-- invitation to them comes or goes.
--
-- seats.deadline is the table's next deadline while it runs (0 otherwise),
-- copied onto each seat, so that the earliest one of a user is one seek in
-- seats_deadline.
ALTER TABLE users ADD COLUMN tables_version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN deadline INTEGER NOT NULL DEFAULT 0;
UPDATE seats SET deadline = coalesce((SELECT CASE WHEN t.status = 1 THEN t.next_deadline ELSE 0
                                              END FROM tables t WHERE t.id = seats.table_id), 0);
CREATE INDEX seats_deadline ON seats(user_id, deadline) WHERE deadline > 0;

CREATE TRIGGER tables_mine AFTER UPDATE OF public_version, status ON tables
WHEN NEW.public_version IS NOT OLD.public_version OR NEW.status IS NOT OLD.status
BEGIN
	UPDATE users SET tables_version = tables_version + 1
	WHERE id IN (SELECT user_id FROM seats WHERE table_id = NEW.id AND user_id IS NOT NULL
	             UNION SELECT to_id FROM invitations WHERE table_id = NEW.id);
END;

CREATE TRIGGER tables_deadline AFTER UPDATE OF next_deadline, status ON tables
WHEN NEW.next_deadline IS NOT OLD.next_deadline OR NEW.status IS NOT OLD.status
BEGIN
	UPDATE seats SET deadline = CASE WHEN NEW.status = 1 THEN NEW.next_deadline ELSE 0 END
	WHERE table_id = NEW.id;
END;

CREATE TRIGGER seats_mine_in AFTER INSERT ON seats
BEGIN
	UPDATE seats SET deadline = (SELECT CASE WHEN t.status = 1 THEN t.next_deadline ELSE 0 END
	                             FROM tables t WHERE t.id = NEW.table_id)
	WHERE table_id = NEW.table_id AND seat = NEW.seat;
	UPDATE users SET tables_version = tables_version + 1 WHERE id = NEW.user_id;
END;

CREATE TRIGGER seats_mine_out AFTER DELETE ON seats
BEGIN
	UPDATE users SET tables_version = tables_version + 1 WHERE id = OLD.user_id;
END;

CREATE TRIGGER seats_mine_moved AFTER UPDATE OF user_id ON seats
WHEN NEW.user_id IS NOT OLD.user_id
BEGIN
	UPDATE users SET tables_version = tables_version + 1
	WHERE id = OLD.user_id OR id = NEW.user_id;
END;

CREATE TRIGGER invitations_mine_in AFTER INSERT ON invitations
BEGIN
	UPDATE users SET tables_version = tables_version + 1 WHERE id = NEW.to_id;
END;

CREATE TRIGGER invitations_mine_out AFTER DELETE ON invitations
BEGIN
	UPDATE users SET tables_version = tables_version + 1 WHERE id = OLD.to_id;
END;

PRAGMA user_version = 16;
