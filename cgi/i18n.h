/*
 * i18n.h — the languages of Spieltisch and their message catalogs
 * (docs/i18n.md).
 *
 * German is the reference: a message id is the German text, so German needs
 * no catalog. Every other language has po/<code>.po, compiled to <code>.mo by
 * the build with the GNU gettext tools and loaded once per worker. They are
 * read here rather than through gettext(3): glibc picks a catalog by the
 * process locale, and a worker answers each request in that reader's
 * language, on machines that may have no locale but C.UTF-8.
 *
 * A request sets its language once (i18n_use); _() then translates in it.
 */
#ifndef SPIELTISCH_I18N_H
#define SPIELTISCH_I18N_H

#include <stddef.h>

struct rerr;   /* rules/game.h */

#ifdef __cplusplus
extern "C" {
#endif

enum lang { LANG_DE, LANG_EN, LANG__MAX };

/* "de", "en": the lang attribute, the cookie, the JSON, the .mo's name. */
extern const char *const lang_code[LANG__MAX];
/* Each language's name in itself, for the switch: "Deutsch", "English". */
extern const char *const lang_name[LANG__MAX];

/* Loads dir/<code>.mo for every language but German. 0, or -1 after
 * logging a catalog that is missing or malformed. */
int i18n_load(const char *dir);

/* i18n_load of the catalogs of an installation rooted at `root`:
 * root/locale, or in a source tree root/build/locale. */
int i18n_load_root(const char *root);

/* The language whose code `s` is ("en", "en-GB", "EN"), or -1. */
int i18n_parse(const char *s);

/* The language an Accept-Language header prefers among ours (by q, then
 * order), German when it names none of them or is NULL. */
enum lang i18n_accept(const char *header);

/* The language of the request being answered, and setting it. */
void i18n_use(enum lang l);
enum lang i18n_lang(void);

/* msgid in language l (msgid itself when German or not in the catalog). */
const char *i18n_get(enum lang l, const char *msgid) __attribute__((format_arg(2)));
/* msgid in the request's language. */
const char *i18n_text(const char *msgid) __attribute__((format_arg(1)));
#define _(s) i18n_text(s)
/* The form of a message with a number for n in language l: `one` (the
 * German singular, the catalog's id) or `many` (its plural), translated
 * with the catalog's plural forms (msgid_plural). */
const char *i18n_nget(enum lang l, const char *one, const char *many, long n)
	__attribute__((format_arg(2))) __attribute__((format_arg(3)));
/* The same in the request's language: ngettext. */
const char *i18n_ntext(const char *one, const char *many, long n)
	__attribute__((format_arg(1))) __attribute__((format_arg(2)));
#ifndef N_
#define N_(s) (s)
#endif

/* Writes a text made of German format `fmt` and its arguments (as struct
 * rerr and vtextf keep them: nargs strings, each ending in NUL) in language
 * l into out: the translated format with the arguments in its conversions'
 * places (in order, or as %N$ says), an argument that is a catalog message
 * translated too. German, or a format the catalog lacks: `de` as it is.
 * Returns out. */
char *i18n_format(enum lang l, const char *fmt, const char *args, int nargs, const char *de,
		  char *out, size_t cap);

/* A rejection's message in the request's language (struct rerr's fmt and
 * args), in a buffer that stays valid for the next three calls. */
const char *i18n_rerr(const struct rerr *e);

#ifdef __cplusplus
}
#endif

#endif
