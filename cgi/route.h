/* route.h — one table: method + path pattern → handler (route.c). */
#ifndef SPIELTISCH_ROUTE_H
#define SPIELTISCH_ROUTE_H

#include "page.h"

/* Finds the handler for p->req, looks up the session, checks CSRF on every
 * POST and login where a route needs it, and runs the handler; p->resp is
 * the answer afterwards. May itself answer 404 (no route), 405 (wrong
 * method, with Allow), 403 (CSRF or login missing) or 500. Afterwards no
 * transaction is open on p->store: one a handler left open is rolled back
 * and logged as a bug (a 500 instead of a success; SPIELTISCH_DEBUG=1
 * aborts the process). */
void route_dispatch(struct page *p);

/* The route table, for tests that walk every route: how many rows, and
 * row i's pattern ('#' an id, '$' a token, '@' a name) and method; NULL
 * past the end. */
int route_count(void);
const char *route_pattern(int i, enum http_method *method);

#endif
