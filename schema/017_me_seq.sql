-- 017: what GET /me/poll reads, one row a user. Before, the poll summed
-- the versions of every table the user ever sat at (and was invited to),
-- so its cost grew with the user's history: 18M instructions for a user at
-- a few thousand tables, where the table poll costs 27k.
--
-- seq grows whenever "Meine Tische" would show something else: a table
-- the user sits at changes what everybody sees (public_version, so a pass
-- in a snap window stays invisible here too, see 003) or its status, a
-- table they are invited to starts or ends, a seat of theirs comes or goes
-- or changes hands, an invitation to them comes or goes. The triggers
-- below do it inside the very transaction that makes the change,
-- whichever code path makes it.
--
-- deadline is a lower bound of the earliest deadline among the running
-- tables the user sits at (0: none known): the triggers only ever lower
-- it. When the poll finds it passed, it computes the true one again
-- (store_user_poll), so the answer is the same as before, and the
-- expensive read happens once per passed deadline, not once per poll.
--
-- poll_token is the secret of the poll address the page uses
-- (/me/poll/<token>), made on the first view of /me: the poll then needs
-- no session lookup (a third of its cost), and the token tells nothing but
-- whether the user's tables changed. Kept as it is, like the feed token (009).
CREATE TABLE me_seq (
	user_id    INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
	seq        INTEGER NOT NULL DEFAULT 1,
	deadline   INTEGER NOT NULL DEFAULT 0,
	poll_token TEXT UNIQUE
);
INSERT INTO me_seq (user_id, seq, deadline)
SELECT u.id, 1, coalesce((SELECT min(t.next_deadline) FROM seats m
	JOIN tables t ON t.id = m.table_id
	WHERE m.user_id = u.id AND t.status = 1 AND t.next_deadline > 0), 0)
FROM users u;

CREATE TRIGGER me_seq_user AFTER INSERT ON users BEGIN
	INSERT INTO me_seq (user_id) VALUES (NEW.id);
END;

-- One trigger a step, one UPDATE over the table's seats (a join, not IN:
-- about 46k instructions a step at four seats against 122k for an IN over
-- a UNION and a second trigger for the deadline, measured with callgrind).
CREATE TRIGGER me_seq_table AFTER UPDATE OF public_version, status, next_deadline ON tables
WHEN NEW.public_version IS NOT OLD.public_version OR NEW.status IS NOT OLD.status
	OR NEW.next_deadline IS NOT OLD.next_deadline BEGIN
	UPDATE me_seq SET
		seq = seq + (NEW.public_version IS NOT OLD.public_version
			     OR NEW.status IS NOT OLD.status),
		deadline = CASE WHEN NEW.status = 1 AND NEW.next_deadline > 0
			AND (deadline = 0 OR deadline > NEW.next_deadline)
			THEN NEW.next_deadline ELSE deadline END
	FROM seats s WHERE s.table_id = NEW.id AND s.user_id = me_seq.user_id;
END;

-- /me shows an invitation while its table waits for players (its game and
-- who invited): only the table's start or end changes that.
CREATE TRIGGER me_seq_invited AFTER UPDATE OF status ON tables
WHEN NEW.status IS NOT OLD.status BEGIN
	UPDATE me_seq SET seq = seq + 1
	FROM invitations i WHERE i.table_id = NEW.id AND i.to_id = me_seq.user_id;
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
