-- 017: what GET /me/poll reads, one row a user. Before, the poll summed
-- the versions of every table the user ever sat at (and was invited to),
-- so its cost grew with the user's history: 18M instructions for a user at
-- a few thousand tables, where the table poll costs 27k.
--
-- seq grows whenever "Meine Tische" would show something else: a table
-- the user sits at (or is invited to) changes what everybody sees
-- (public_version, so a pass in a snap window stays invisible here too,
-- see 003) or its status, a seat of theirs comes or goes or changes hands,
-- an invitation to them comes or goes. The triggers below do it inside the
-- very transaction that makes the change, whichever code path makes it.
--
-- deadline is a lower bound of the earliest deadline among the running
-- tables the user sits at (0: none known): the triggers only ever lower
-- it. When the poll finds it passed, it computes the true one again
-- (store_user_poll), so the answer is the same as before, and the
-- expensive read happens once per passed deadline, not once per poll.
CREATE TABLE me_seq (
	user_id  INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
	seq      INTEGER NOT NULL DEFAULT 1,
	deadline INTEGER NOT NULL DEFAULT 0
);
INSERT INTO me_seq (user_id, seq, deadline)
SELECT u.id, 1, coalesce((SELECT min(t.next_deadline) FROM seats m
	JOIN tables t ON t.id = m.table_id
	WHERE m.user_id = u.id AND t.status = 1 AND t.next_deadline > 0), 0)
FROM users u;

CREATE TRIGGER me_seq_user AFTER INSERT ON users BEGIN
	INSERT INTO me_seq (user_id) VALUES (NEW.id);
END;

CREATE TRIGGER me_seq_table AFTER UPDATE OF public_version, status ON tables
WHEN NEW.public_version IS NOT OLD.public_version OR NEW.status IS NOT OLD.status BEGIN
	UPDATE me_seq SET seq = seq + 1 WHERE user_id IN
		(SELECT user_id FROM seats WHERE table_id = NEW.id
		 UNION SELECT to_id FROM invitations WHERE table_id = NEW.id);
END;

CREATE TRIGGER me_seq_deadline AFTER UPDATE OF next_deadline, status ON tables
WHEN NEW.status = 1 AND NEW.next_deadline > 0 BEGIN
	UPDATE me_seq SET deadline = NEW.next_deadline
	WHERE user_id IN (SELECT user_id FROM seats WHERE table_id = NEW.id)
	AND (deadline = 0 OR deadline > NEW.next_deadline);
END;

-- a seat comes or changes hands: deadline 1 (long passed) makes the next
-- poll compute the user's earliest deadline again (rare; a move is not one)
CREATE TRIGGER me_seq_seat_in AFTER INSERT ON seats WHEN NEW.user_id IS NOT NULL BEGIN
	UPDATE me_seq SET seq = seq + 1, deadline = 1 WHERE user_id = NEW.user_id;
END;

CREATE TRIGGER me_seq_seat_out AFTER DELETE ON seats WHEN OLD.user_id IS NOT NULL BEGIN
	UPDATE me_seq SET seq = seq + 1 WHERE user_id = OLD.user_id;
END;

CREATE TRIGGER me_seq_seat_hands AFTER UPDATE OF user_id ON seats
WHEN NEW.user_id IS NOT OLD.user_id BEGIN
	UPDATE me_seq SET seq = seq + 1 WHERE user_id = OLD.user_id;
	UPDATE me_seq SET seq = seq + 1, deadline = 1 WHERE user_id = NEW.user_id;
END;

CREATE TRIGGER me_seq_invite_in AFTER INSERT ON invitations BEGIN
	UPDATE me_seq SET seq = seq + 1 WHERE user_id = NEW.to_id;
END;

CREATE TRIGGER me_seq_invite_out AFTER DELETE ON invitations BEGIN
	UPDATE me_seq SET seq = seq + 1 WHERE user_id = OLD.to_id;
END;

PRAGMA user_version = 17;
