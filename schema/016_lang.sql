-- 016: the language a user chose for the site ("de", "en"; '' none yet:
-- then the browser's cookie or Accept-Language decide). Mails go out in it.
ALTER TABLE users ADD COLUMN lang TEXT NOT NULL DEFAULT '';

PRAGMA user_version = 16;
