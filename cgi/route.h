/* route.h — one table: method + path pattern → handler (route.c). */
#ifndef SPIELTISCH_ROUTE_H
#define SPIELTISCH_ROUTE_H

#include "page.h"

/* Finds the handler for p->req, looks up the session, checks CSRF on every
 * POST and login where a route needs it, and runs the handler; p->resp is
 * the answer afterwards. May itself answer 404 (no route), 405 (wrong
 * method, with Allow), 403 (CSRF or login missing) or 500. */
void route_dispatch(struct page *p);

#endif
