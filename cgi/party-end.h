/*
 * party-end.h — the summary of a finished party on the table page
 * (templates/party-end.tpl, "party_end" in the JSON twin): the result of
 * the party, who continued during the pause before the next one, and at
 * the end of a match the match result first.
 */
#ifndef SPIELTISCH_PARTY_END_H
#define SPIELTISCH_PARTY_END_H

#include "page.h"
#include "play.h"

/* Adds the include "party_end" to v when pt's party is over (pausing or
 * finished), names[] the seats' names (NULL: empty seat). While the viewer's
 * seat may continue, also lists PLAY_CONTINUE under "moves" and turns
 * "can_act" on, so that every client that plays from the move list goes on.
 * Nothing while a party runs. 0, or -1 when the arena is exhausted. */
int party_end_view(struct page *p, const struct play_table *pt, struct view *v,
		   const char *const *names);

#endif
