-- 003: the version a poll compares. `version` grows with every step (a
-- move's page is stale-checked against it); `public_version` only with a
-- step that changes what other seats or a spectator see. A pass in a snap
-- window changes nothing visible: if it made every other page reload, the
-- reload's timing would tell who passed (docs/storage.md, "What a poll sees").
ALTER TABLE tables ADD COLUMN public_version INTEGER NOT NULL DEFAULT 1;
UPDATE tables SET public_version = version;

PRAGMA user_version = 3;
