-- 024: a right password is never refused for others' failures. The
-- throttle's budget per address (AUTH_ADDR_FREE failures for any names)
-- stops one address from trying a password on many names; but everybody
-- behind that address (a school's, a family's NAT) shared it, so twenty
-- typos of the class refused every login there for a while. A name that
-- logged in from an address before is known there: for it, only its own
-- failures from there count (the per-name budget), not the address's.
-- Keyed as login_failures' pair keys: the folded name, US (0x1F), the
-- address key of auth.c; `at` is the latest successful login.
CREATE TABLE login_known (
	pair_key TEXT    PRIMARY KEY,
	at       INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX login_known_at ON login_known(at);

PRAGMA user_version = 24;
