/*
 * live.h — the push of poll numbers to nginx's Nchan channels
 * (`spieltisch serve --publish unix:PATH`; docs/api.md "Live channels").
 *
 * After a request, a worker hands what its writes changed (store_live_take)
 * as short datagrams to the publisher, a child of the master that POSTs
 * each to nginx's publisher location; a worker never waits for nginx.
 * Without --publish nothing of this runs and pages poll.
 */
#ifndef SPIELTISCH_LIVE_H
#define SPIELTISCH_LIVE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"

/* The master, before the fork: "unix:/path/to/socket" (NULL or "": off).
 * 0, or -1 with the reason on stderr (a bad address). */
int live_open(const char *addr);
/* 1 when the push is configured. */
int live_on(void);
/* A worker, after its store is open: watches its writes. 0 or -1. */
int live_worker(struct store *s);
/* A worker, after each request's answer is out: sends what changed.
 * Never blocks; a full queue or a dead publisher loses the message
 * (logged once), the pages' safety poll finds the change. */
void live_after_request(struct store *s);
/* The publisher child's loop until *stop; returns the exit status. */
int live_publisher(volatile sig_atomic_t *stop);

/* The channel a page subscribes to for its poll URL (/t/<id>/poll,
 * /me/poll/<token>, /tournaments/<id>/poll) into out: /live/t/<id>,
 * /live/me/<token>, /live/tournaments/<id>; 0, or -1 when the URL has
 * none (the push is off, or the /me poll without token). */
int live_url(const char *poll_url, char *out, size_t cap);

#endif
