/*
 * dialect.h — the store's statement texts, written for SQLite, as
 * PostgreSQL takes them (docs/storage.md, "PostgreSQL").
 *
 * The texts in the files' stmt_text[] are written so that one text runs on
 * both engines; what cannot be written alike is turned here, once per
 * statement when a connection prepares it, never per request:
 * - placeholders: ?N becomes $N, and a bare ? the next number (SQLite's
 *   rule: one above the highest used so far);
 * - a type hint, a comment holding "::TYPE" right after a placeholder
 *   (?3, then the comment "::BIGINT" in slash-star, star-slash), becomes
 *   PostgreSQL's cast "$3::BIGINT": PostgreSQL gives a parameter
 *   the type of its first use, which for "?3 > 0" would be a 32-bit
 *   INTEGER; SQLite skips the comment, so its statement is what it was;
 * - SQLite's planner hint INDEXED BY name is left out (PostgreSQL plans
 *   from its statistics).
 * Nothing inside a string literal ('…') or a quoted name ("…") is changed.
 */
#ifndef ST_DIALECT_H
#define ST_DIALECT_H

#include <stddef.h>

/* Writes PostgreSQL's text of sqlite_sql into out (cap bytes, NUL ended);
 * returns its length, or 0 when it does not fit (out is then ""). */
size_t st_pg_text(const char *sqlite_sql, char *out, size_t cap);

#endif
