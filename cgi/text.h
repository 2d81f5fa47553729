/* text.h — what a user types: every text a person enters (a user name at
 * registration, a tournament's name, a chat message, a name to invite) is
 * checked and normalised here, and names are compared here.
 *
 * Refused: text that is not UTF-8; control characters (line breaks
 * included) and the line and paragraph separators; the invisible format
 * characters (bidirectional marks, embeddings, overrides and isolates such
 * as U+202E, zero-width space U+200B, U+FEFF, U+061C, soft hyphen), except
 * the zero-width joiner between two symbols (emoji sequences); private-use,
 * unassigned and surrogate code points; more than TEXT_MARKS_MAX combining
 * marks on one character (stacked marks that run over the lines around).
 * Accepted text is stored in NFC. The Unicode data come from libraries:
 * libunistring (categories, normalisation, case) and ICU (the confusable
 * skeletons of its spoof checker, UTS #39).
 */
#ifndef SPIELTISCH_TEXT_H
#define SPIELTISCH_TEXT_H

#include <stddef.h>

#include "game.h"

enum {
	TEXT_MARKS_MAX = 3,   /* combining marks on one character */
	TEXT_KEY_MAX = 255    /* bytes of a name's key or skeleton */
};

/* Checks `in` and writes it in NFC into out (cap bytes): 0 with *chars its
 * characters (code points; chars may be NULL), or -1 with the reason in e
 * (German; the text's own limits of length are the caller's). */
int text_clean(const char *in, char *out, size_t cap, size_t *chars, struct rerr *e);

/* A name in lower case (libunistring's, NFC) into out: the key under which
 * a name is found whatever its case ("Anna", "ANNA"). 0, or -1 when it does
 * not fit or is not UTF-8. */
int text_fold(const char *in, char *out, size_t cap);

/* A name's confusable skeleton into out: lower case, NFKC, then ICU's
 * skeleton (UTS #39), so names a reader cannot tell apart have the same
 * one ("admın" and "admin", "раураl" in Cyrillic and "paypal", "rn" and
 * "m"). Lower case, not full case folding: "Straße" and "Strasse" look
 * different and stay two names. 0, or -1 when it does not fit or is not
 * UTF-8. */
int text_skeleton(const char *in, char *out, size_t cap);

/* Opens ICU's spoof checker now (the server's master, before the fork, so
 * that the workers share it); text_skeleton() opens it otherwise. 0 or -1. */
int text_init(void);

#endif
