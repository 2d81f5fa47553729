/* page-table.c — the table page and its JSON twin, moves, join, leave.
 * No game logic here: only the game interface (view, moves, status). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "bot.h"
#include "chat.h"
#include "i18n.h"
#include "invite.h"
#include "match.h"
#include "page.h"
#include "party-end.h"
#include "play.h"
#include "seatclock.h"
#include "text.h"
#include "tmpl.h"

static const char *const status_names[] = {
	[TABLE_OPEN] = "open", [TABLE_PLAYING] = "playing", [TABLE_FINISHED] = "finished",
};
_Static_assert(sizeof status_names / sizeof status_names[0] == TABLE_STATUS__MAX, "status_names");

/* NOTE_CHAT: a refused chat message, its reason and text for the chat card;
 * NOTE_DONE: a seat action went through (an invitation sent or withdrawn) */
enum { NOTE_NONE, NOTE_STALE, NOTE_REJECTED, NOTE_REFUSED, NOTE_CHAT, NOTE_DONE, NOTE__MAX };
static const char *const note_kinds[] = {
	[NOTE_NONE] = "", [NOTE_STALE] = "stale", [NOTE_REJECTED] = "rejected",
	[NOTE_REFUSED] = "refused", [NOTE_CHAT] = "chat", [NOTE_DONE] = "done",
};
_Static_assert(sizeof note_kinds / sizeof note_kinds[0] == NOTE__MAX, "note_kinds");

struct names {
	const char *name[GAME_MAX_SEATS];
};

static void emit_move(void *ctx, const char *move)
{
	struct view *v = ctx;
	view_begin(v, "moves");
	view_str(v, "move", move);
	view_end(v);
}

struct logctx {
	struct view *v;
	const struct names *nm;
};

static void emit_step(void *ctx, const struct st_move *m)
{
	struct logctx *l = ctx;
	view_begin(l->v, "steps");
	view_num(l->v, "seq", m->seq);
	view_num(l->v, "seat", m->seat);
	view_str(l->v, "seat_name", m->seat >= 0 && m->seat < GAME_MAX_SEATS && l->nm->name[m->seat] ?
				   l->nm->name[m->seat] : "");
	view_flag(l->v, m->seat < 0 ? (strcmp(m->text, PLAY_STEP_TICK) == 0 ? "tick" : "clock")
				    : "by_seat", 1);
	view_str(l->v, "text", m->text);
	view_num(l->v, "at", m->at);
	view_end(l->v);
}

/* store_table_logs' rows into sections party_logs, one a party. */
struct logsctx {
	struct logctx l;
	int open, shown, max, number;
};

static void emit_log_row(void *ctx, int number, const struct st_move *m)
{
	struct logsctx *c = ctx;
	if (!c->open || number != c->number) {
		if (c->open)
			view_end(c->l.v);
		c->open = 0;
		if (c->shown >= c->max)
			return;
		view_begin(c->l.v, "party_logs");
		view_num(c->l.v, "number", number + 1);
		view_list(c->l.v, "steps");
		c->open = 1;
		c->shown++;
		c->number = number;
	}
	if (m)
		emit_step(&c->l, m);
}

/* The raw move log of every finished party (section party_logs), in one
 * read. Only finished parties: their hidden information is no longer
 * hidden. 0 or -1. */
static int logs_view(struct page *p, const struct play_table *pt, struct view *v,
		     const struct names *nm)
{
	view_list(v, "party_logs");
	view_flag(v, "has_logs", pt->nfinished > 0);
	if (pt->nfinished == 0)
		return 0;
	struct logsctx c = { { v, nm }, 0, 0, pt->nfinished < 64 ? pt->nfinished : 64, 0 };
	if (store_table_logs(p->store, pt->t.id, emit_log_row, &c) != ST_OK)
		return -1;
	if (c.open)
		view_end(v);
	return 0;
}

/* Scores of finished parties, running totals and the standings (places
 * shared on equal totals, every leader a winner once the match is over). */
static void scores_view(const struct play_table *pt, struct view *v, const struct names *nm)
{
	int n = pt->t.nseats;
	view_list(v, "parties");
	view_flag(v, "has_parties", pt->nfinished > 0);
	for (int k = 0; k < pt->nfinished && k < 64; k++) {
		view_begin(v, "parties");
		view_num(v, "number", k + 1);
		for (int s = 0; s < n; s++) {
			view_begin(v, "scores");
			view_num(v, "seat", s);
			view_num(v, "score", pt->party_score[k][s]);
			view_end(v);
		}
		view_end(v);
	}
	/* by totals; a seat whose person resigned counts as last */
	int place[GAME_MAX_SEATS] = { 0 };
	uint32_t resigned = 0, leaders = 0;
	for (int i = 0; i < pt->nseated; i++)
		if (pt->seats[i].resigned && pt->seats[i].seat >= 0 && pt->seats[i].seat < n)
			resigned |= 1u << pt->seats[i].seat;
	match_standings(&pt->totals, n, resigned, place);
	for (int s = 0; s < n; s++)
		leaders |= place[s] == 1 ? 1u << s : 0;
	int over = pt->t.status == TABLE_FINISHED;
	view_num(v, "parties_played", pt->totals.parties);
	view_list(v, "standings");
	for (int pl = 1; pl <= n; pl++)
		for (int s = 0; s < n; s++) {
			if (place[s] != pl)
				continue;
			view_begin(v, "standings");
			view_num(v, "place", pl);
			view_num(v, "seat", s);
			view_str(v, "name", nm->name[s] ? nm->name[s] : "");
			view_num(v, "total", pt->totals.total[s]);
			view_flag(v, "winner", over && pt->totals.parties > 0 && (leaders >> s & 1u));
			view_end(v);
		}
}

/* What the viewer may do now, from the game's status only (no game logic):
 * a window is open while status.window names seats; then the seat on turn
 * is only "next", whatever it may do inside the window. What the viewer is
 * asked is play_asked()'s, as "Meine Tische", the feed and the title say. */
struct act {
	int playing;        /* a party runs */
	int can_act;        /* the viewer has a legal move now */
	int turn;           /* status.turn, -1 when not playing */
	uint32_t window;    /* the open window's seats, 0: none */
	enum play_ask ask;  /* what the viewer is asked (also the pause's "weiter") */
	int my_turn;        /* PLAY_ASK_TURN: my regular turn, no window open */
	int in_window;      /* PLAY_ASK_WINDOW: I may act in the open window, or out of turn */
	int waiting;        /* my turn comes once the window closes */
	int window_done;    /* the window is for me, but I have already acted */
};

/* Fills a for the viewer of pt. */
static void act_of(const struct play_table *pt, struct act *a)
{
	int me = pt->my_seat;
	memset(a, 0, sizeof *a);
	a->playing = pt->t.status == TABLE_PLAYING && pt->has_party && !pt->status.over;
	a->turn = a->playing ? pt->status.turn : -1;
	if (pt->t.status == TABLE_PLAYING && pt->has_party)
		a->ask = play_asked(&pt->status, pt->pausing, pt->ready, me);
	if (!a->playing)
		return;
	a->window = pt->status.window;
	a->can_act = me >= 0 && (pt->status.to_act >> me & 1u);
	a->my_turn = a->ask == PLAY_ASK_TURN;
	a->in_window = a->ask == PLAY_ASK_WINDOW;
	if (!a->window)
		return;
	a->waiting = me >= 0 && a->turn == me;
	a->window_done = me >= 0 && !a->can_act && (a->window >> me & 1u);
}


/* Section `countdown`: the seconds left of the running deadline. Right
 * after a deadline passed, the one running is a new one, and the words say
 * so ("neue Frist"), never a countdown of the deadline that passed. */
static void deadline_countdown(struct view *v, long long secs, int expired)
{
	view_begin(v, "countdown");
	view_num(v, "seconds", secs);
	view_flag(v, "renewed", expired);
	view_flag(v, "running", !expired);
	view_end(v);
}

/* The one line that says what the viewer may do now (status_text, and
 * flags for JSON clients), with the deadline's countdown. */
static void status_line(struct page *p, const struct play_table *pt, const struct act *a,
			struct view *v, const char **mine, int *expired_out)
{
	int expired = a->playing && !a->window && pt->party.last_tick;
	const char *text = NULL, *kind = "info";
	if (a->my_turn) {
		text = expired ? _("Die Frist ist abgelaufen. Du bist dran!") : _("Du bist dran!");
		kind = "turn";
	} else if (a->in_window) {
		text = a->waiting ? _("Du darfst jetzt eingreifen; danach bist du dran.")
				  : _("Du darfst jetzt eingreifen.");
		kind = "window";
	} else if (a->waiting) {
		text = _("Gleich bist du dran: erst dürfen die anderen eingreifen.");
		kind = "wait";
	} else if (a->window_done) {
		text = _("Du hast dich entschieden; die anderen dürfen noch eingreifen.");
		kind = "wait";
	} else if (a->window) {
		text = _("Die anderen dürfen jetzt eingreifen.");
	} else if (expired) {
		text = _("Die Frist ist abgelaufen.");
	} else if (a->playing && pt->status.deadline > p->now_ms) {
		text = _("Eine Frist läuft.");
	}
	static const char *const asked[PLAY_ASK__MAX] = {
		[PLAY_ASK_NONE] = "", [PLAY_ASK_TURN] = "turn", [PLAY_ASK_WINDOW] = "window",
		[PLAY_ASK_CONTINUE] = "continue",
	};
	view_str(v, "asked", asked[a->ask]);
	view_flag(v, "my_turn", a->my_turn);
	view_flag(v, "window", a->in_window);
	view_flag(v, "window_open", a->window != 0);
	view_flag(v, "waiting", !a->in_window && a->waiting);
	view_flag(v, "window_done", a->window_done && !a->waiting);
	view_flag(v, "window_expired", expired);
	view_flag(v, "has_status", text != NULL);
	view_str(v, "status_text", text ? text : "");
	*mine = text;
	*expired_out = expired;
	view_str(v, "status_kind", kind);
	/* Seconds left, counted from the server's clock so that a wrong clock
	 * on the phone does not matter; poll.js counts down. */
	long long secs = a->playing && pt->status.deadline > p->now_ms ?
			 (pt->status.deadline - p->now_ms + 999) / 1000 : 0;
	if (secs > 0)
		deadline_countdown(v, secs, expired);
	view_global_num(v, "deadline_seconds", secs);   /* for a board's own countdown */
}

/* Section `seats`: every seat's player, turn and window badges, points in
 * this party and the match so far. */
/* The row of seat s, or NULL when nobody holds it. */
static const struct st_seat *seat_row(const struct play_table *pt, int s)
{
	for (int i = 0; i < pt->nseated; i++)
		if (pt->seats[i].seat == s)
			return &pt->seats[i];
	return NULL;
}

/* What the viewer may do with seats: add a bot to an open table; let a bot
 * play for them, take the seat back, or resign at a running one. */
/* Inviting by name (an open table) and the next match (a finished one). */
static void invite_view(struct page *p, const struct play_table *pt, struct view *v)
{
	const struct st_table *t = &pt->t;
	int seated = pt->my_seat >= 0;
	view_str(v, "invite_url", page_table_url(p, t->id, "/invite"));
	view_str(v, "rematch_url", page_table_url(p, t->id, "/rematch"));
	view_flag(v, "can_invite", seated && t->status == TABLE_OPEN);
	view_flag(v, "can_rematch", seated && t->status == TABLE_FINISHED && !t->rematch);
	view_flag(v, "has_rematch", t->rematch != 0);
	view_str(v, "next_table_url", t->rematch ? page_table_url(p, t->rematch, "") : "");
	view_num(v, "next_table_id", t->rematch);
}

/* The invitation card of an open table (table-invites.tpl): the link; for
 * a seated person also the form to invite by name and the invitations
 * still open, each with its withdraw button. HTML only. */
static void invites_view(struct page *p, const struct play_table *pt, struct view *v)
{
	enum { SHOWN = 32 };
	const struct st_table *t = &pt->t;
	struct st_invitee list[SHOWN];
	int n = 0, seated = pt->my_seat >= 0;
	if (p->req->wants_json || t->status != TABLE_OPEN)
		return;
	if (seated && store_invites_at(p->store, t->id, list, SHOWN, &n) != ST_OK)
		n = 0;   /* the page without the list rather than no page */
	view_include(v, "table_invites", "table-invites.tpl");
	view_str(v, "invite_path", page_table_url(p, t->id, ""));
	view_flag(v, seated ? "can_invite" : "link_only", 1);
	view_str(v, "invite_url", page_table_url(p, t->id, "/invite"));
	view_str(v, "uninvite_url", page_table_url(p, t->id, "/uninvite"));
	view_str(v, "csrf", seated ? p->csrf : "");
	view_flag(v, "has_invites", n > 0);
	for (int i = 0; i < n; i++) {
		view_begin(v, "invites");
		view_num(v, "id", list[i].id);
		view_str(v, "to", list[i].to);
		view_str(v, "to_url", page_user_url(p, list[i].to));
		view_str(v, "from", list[i].from);
		view_end(v);
	}
	view_end(v);
}

static void seat_actions_view(struct page *p, const struct play_table *pt, struct view *v)
{
	const struct st_table *t = &pt->t;
	const struct st_seat *mine = pt->my_seat >= 0 ? seat_row(pt, pt->my_seat) : NULL;
	int playing = t->status == TABLE_PLAYING;
	view_str(v, "bot_url", page_table_url(p, t->id, "/bot"));
	view_str(v, "seat_url", page_table_url(p, t->id, "/seat"));
	view_flag(v, "can_add_bot", mine && t->status == TABLE_OPEN && pt->nseated < t->nseats);
	view_flag(v, "can_hand_over", mine && playing && !mine->bot);
	view_flag(v, "can_take_back", mine && playing && mine->bot && !mine->resigned);
	view_flag(v, "can_resign", mine && playing && !mine->resigned);
	view_flag(v, "my_bot_plays", mine && mine->bot && !mine->resigned);
	view_flag(v, "i_resigned", mine && mine->resigned);
	view_flag(v, "can_autopass", mine && t->status != TABLE_FINISHED && !mine->bot);
	view_flag(v, "my_autopass", mine && mine->autopass);
	view_flag(v, "autopass_off", mine && !mine->autopass);
}

/* A seat's clock, as everyone sees it: what is left (running or not), its
 * timeouts, and whether the viewer may vote to let a bot take it over.
 * Over days every clock of an open window runs until the window closes
 * (rules/clock.h), so what is shown does not tell who passed. */
static void clock_view(struct page *p, const struct play_table *pt, const struct st_seat *st,
		       struct view *v)
{
	const struct clock_rule *c = &pt->t.clock;
	int running = st->waiting_since > 0 && !st->bot && pt->t.status == TABLE_PLAYING;
	int64_t left = running ? st->clock_left - clock_elapsed(c, st->waiting_since, p->now_ms) :
				 st->clock_left;
	const char *text = st->bot ? "" : page_clock_text(p->a, left, c->day_ms);
	/* a live table's running clock counts down in seconds (poll.js) */
	int countdown = running && !c->windows && left > 0;
	view_flag(v, "has_clock", !st->bot);
	view_flag(v, "clock_countdown", countdown);
	view_flag(v, "clock_static", !countdown);
	view_num(v, "clock_seconds", left > 0 ? (left + 999) / 1000 : 0);
	view_str(v, "clock", text ? text : "");
	view_num(v, "clock_left_ms", left > 0 ? left : 0);
	view_flag(v, "clock_running", running);
	view_flag(v, "clock_low", running && left < c->per_move_ms / 4);
	view_num(v, "timeouts", st->timeouts);
	view_flag(v, "has_timeouts", st->timeouts > 0);
	uint32_t voters = pt->t.status == TABLE_PLAYING ?
			  seatclock_voters(pt->seats, pt->nseated, st->seat) : 0;
	int me = pt->my_seat, votes = __builtin_popcount(st->expel_votes & voters);
	view_flag(v, "can_expel", me >= 0 && ((voters >> me) & 1u) && !((st->expel_votes >> me) & 1u));
	view_flag(v, "has_expel_votes", votes > 0);
	view_num(v, "expel_votes", votes);
	view_num(v, "expel_needed", __builtin_popcount(voters));
}

/* A seat a bot holds for nobody may be claimed by a logged-in visitor who
 * is not seated there (play_claim): from the next party on it is theirs. */
static void claim_view(struct page *p, const struct play_table *pt, const struct st_seat *st,
		       struct view *v)
{
	int claiming = 0;
	for (int i = 0; i < pt->nseated; i++)
		claiming |= p->user_id && pt->seats[i].claimed_by == p->user_id;
	int open = st && st->bot && (!st->user_id || st->resigned) && !st->claimed_by &&
		   pt->t.status == TABLE_PLAYING && pt->t.party_no + 1 < pt->t.nparties;
	int can = open && p->user_id && pt->my_seat < 0 && !claiming;
	view_flag(v, "can_claim", can);
	/* (the table's own "csrf" is empty for a visitor: the board's forms
	 * are not theirs) */
	view_str(v, "claim_csrf", can ? p->csrf : "");
	view_flag(v, "claimed", st && st->claimed_by);
	view_str(v, "claimer", st && st->claimed_by ? st->claimer : "");
}

static void seats_view(struct page *p, const struct play_table *pt, const struct act *a,
		       const struct names *nm, struct view *v)
{
	const struct st_table *t = &pt->t;
	int me = pt->my_seat, turn = a->turn;
	for (int s = 0; s < t->nseats && s < GAME_MAX_SEATS; s++) {
		view_begin(v, "seats");
		view_num(v, "seat", s);
		view_num(v, "number", s + 1);
		view_str(v, "name", nm->name[s] ? nm->name[s] : "");
		view_flag(v, "empty", !nm->name[s]);
		view_flag(v, "me", s == me);
		/* In a window every seat it is for keeps its flag until it closes:
		 * who already passed is nobody else's business (a quick pass
		 * suggests an empty hand). */
		int acting = (a->window || a->playing) && (play_acting_mask(&pt->status) >> s & 1u);
		/* the pause after a party: who has not continued yet (party_end
		 * shows it too: `ready` / `waiting`) */
		int asked_on = pt->pausing && !(pt->ready >> s & 1u);
		/* turn < 0: everyone who may act is on turn (simultaneous choices). */
		view_flag(v, "turn", !a->window && (s == turn || (turn < 0 && acting)));
		view_flag(v, "next", a->window && s == turn);
		view_flag(v, "acting", acting || asked_on);
		view_flag(v, "acting_out_of_turn", acting && (a->window || (turn >= 0 && s != turn)));
		view_num(v, "score", pt->has_party ? pt->status.score[s] : 0);
		view_num(v, "total", pt->totals.total[s]);
		const struct st_seat *st = seat_row(pt, s);
		int person = st && st->user_id && st->name[0];
		view_flag(v, person ? "has_profile" : "no_profile", 1);
		view_str(v, "profile_url", person ? page_user_url(p, st->name) : "");
		view_flag(v, "bot", st && st->bot && !st->user_id);
		view_flag(v, "bot_plays", st && st->bot && st->user_id && !st->resigned);
		view_flag(v, "resigned", st && st->resigned && !st->timeouts);
		view_flag(v, "timed_out", st && st->resigned && st->timeouts);
		if (st && pt->t.clock.first_ms > 0)
			clock_view(p, pt, st, v);
		claim_view(p, pt, st, v);
		view_end(v);
	}
}

/* The names of the seats in mask, joined by ", " (the viewer as "dich"). */
static const char *names_of(struct page *p, uint32_t mask, int me, const struct names *nm)
{
	const char *out = "";
	for (int s = 0; s < GAME_MAX_SEATS && out; s++)
		if (mask >> s & 1u) {
			const char *n = s == me ? _("dich") : nm->name[s] ? nm->name[s] : "?";
			out = arena_printf(p->a, *out ? "%s, %s" : "%s%s", out, n);
		}
	return out;
}

/* A seat's clock in the status bar: what is left, and whether it runs. */
static void bar_clock(struct page *p, const struct play_table *pt, const struct st_seat *st,
		      struct view *v)
{
	const struct clock_rule *c = &pt->t.clock;
	int running = st->waiting_since > 0 && !st->bot && pt->t.status == TABLE_PLAYING;
	int64_t left = running ? st->clock_left - clock_elapsed(c, st->waiting_since, p->now_ms) :
				 st->clock_left;
	int countdown = running && !c->windows && left > 0;
	const char *text = page_clock_text(p->a, left, c->day_ms);
	view_flag(v, "has_clock", !st->bot);
	view_str(v, "clock", text ? text : "");
	view_flag(v, "clock_countdown", countdown);
	view_flag(v, "clock_static", !countdown);
	view_num(v, "clock_seconds", left > 0 ? (left + 999) / 1000 : 0);
	view_flag(v, "clock_running", running);
}

/* The status bar (status-bar.tpl, "status_bar" in JSON): for every seat and
 * spectator, whom the party waits for and what they are doing (the game's
 * doing()), the running deadline's countdown and, at a table with clocks,
 * every seat's clock. Who is asked is play_acting_mask()'s: an open
 * window's seats stay "kann noch eingreifen" until it closes, whoever
 * passed. A seat's own word is play_asked()'s (act_of). */
static void status_bar_view(struct page *p, const struct play_table *pt, const struct act *a,
			    const struct names *nm, const char *mine, int expired, struct view *v)
{
	/* the old banner (status_text) only where no bar says it */
	if (!a->playing && !pt->pausing) {
		view_flag(v, "banner", mine != NULL);
		return;
	}
	int me = pt->my_seat, n = pt->t.nseats, clocks = pt->t.clock.first_ms > 0;
	uint32_t asked = 0;
	if (pt->pausing)
		for (int s = 0; s < n; s++)
			asked |= pt->ready >> s & 1u ? 0 : 1u << s;
	else
		asked = play_acting_mask(&pt->status);
	const char *doing = pt->pausing ? _("weiter zur nächsten Partie") :
			    pt->g->doing && pt->g->doing(pt->state) ? _(pt->g->doing(pt->state)) :
			    NULL;
	const char *who = names_of(p, asked, me, nm), *text = NULL;
	if (!who) {
		view_flag(v, "banner", mine != NULL);
		return;
	}
	if (a->my_turn && asked == 1u << me)
		text = !doing ? mine : expired ?
		       arena_printf(p->a, _("Die Frist ist abgelaufen. Du bist dran: %s"), doing) :
		       arena_printf(p->a, _("Du bist dran: %s"), doing);
	else if (asked)
		text = doing ? arena_printf(p->a, _("Warte auf %s: %s"), who, doing) :
			       arena_printf(p->a, _("Warte auf %s."), who);
	if (!text && !clocks) {
		view_flag(v, "banner", mine != NULL);   /* nobody asked: the banner says it */
		return;
	}
	view_flag(v, "banner", 0);
	view_include(v, "status_bar", "status-bar.tpl");
	view_str(v, "text", text ? text : "");
	/* what the viewer's own banner said, unless the sentence says it */
	int own = mine && !(a->my_turn && asked == 1u << me);
	view_flag(v, "has_mine", own);
	view_str(v, "mine", own ? mine : "");
	view_str(v, "kind", a->my_turn ? "turn" : a->in_window ? "window" :
			    a->ask == PLAY_ASK_CONTINUE ? "continue" : "wait");
	view_str(v, "doing", doing ? doing : "");
	view_flag(v, "window_open", a->window != 0);
	/* the game's deadline; over days the clocks stand in for it */
	long long secs = a->playing && !(clocks && pt->t.clock.windows) &&
			 pt->status.deadline > p->now_ms ?
			 (pt->status.deadline - p->now_ms + 999) / 1000 : 0;
	if (secs > 0)
		deadline_countdown(v, secs, expired);
	view_list(v, "seats");
	for (int s = 0; s < n && s < GAME_MAX_SEATS; s++) {
		const struct st_seat *st = seat_row(pt, s);
		int on = asked >> s & 1u;
		if (!on && !clocks)
			continue;
		view_begin(v, "seats");
		view_num(v, "seat", s);
		view_str(v, "name", nm->name[s] ? nm->name[s] : "");
		view_flag(v, "me", s == me);
		view_flag(v, "asked", on);
		view_flag(v, "turn", on && !a->window && !pt->pausing);
		view_flag(v, "in_window", on && a->window != 0);
		view_flag(v, "next", a->window && s == a->turn);
		view_flag(v, "to_continue", on && pt->pausing);
		if (clocks && st)
			bar_clock(p, pt, st, v);
		view_end(v);
	}
	view_flag(v, "has_clocks", clocks);
	view_end(v);
}

/* The game's own board: game-<slug>.tpl (game-generic.tpl while a game has
 * none) with the game's view for the viewer's seat, which leaves out
 * whatever that seat may not see. 0, or -1 when the arena is exhausted. */
static int board_view(struct page *p, const struct play_table *pt, const struct act *a,
		      const char *move_url, const char *const *names, struct view *v)
{
	const struct game *g = pt->g;
	const struct st_table *t = &pt->t;
	int me = pt->my_seat;
	char *file = arena_printf(p->a, "game-%s.tpl", g->slug);
	if (!file)
		return -1;
	if (!tmpl_exists(file))
		file = "game-generic.tpl";   /* a game whose board is not drawn yet */
	view_include(v, "game", file);
	view_num(v, "table_id", t->id);
	view_num(v, "v", pt->seen);
	view_str(v, "csrf", me >= 0 ? p->csrf : "");
	view_str(v, "move_url", move_url);
	view_num(v, "my_seat", me);
	view_flag(v, "can_act", a->can_act);
	view_names(v, names, t->nseats);
	struct view_sink sink;
	view_sink_init(v, &sink);
	g->view(pt->state, me, &sink);
	view_names(v, NULL, 0);
	view_end(v);
	return 0;
}

/* The whole table as one tree: what the page shows and the JSON twin
 * carries. Hidden information is whatever game->view leaves out for
 * my_seat. 0, or -1 on a store error. */
/* Each seat's name (a person's, or the bot's "Bot 3 (gierig)") into nm, and
 * the same as an array in the request's arena into *names. 0, -1 when the
 * arena is full. */
static int seat_names(struct page *p, const struct play_table *pt, struct names *nm,
		      const char ***names)
{
	for (int i = 0; i < pt->nseated; i++) {
		const struct st_seat *st = &pt->seats[i];
		if (st->seat < 0 || st->seat >= GAME_MAX_SEATS)
			continue;
		nm->name[st->seat] = st->user_id ? st->name :
				     arena_printf(p->a, st->bot == 1 ? _("Bot %d (zufällig)") :
						  _("Bot %d (gierig)"), st->seat + 1);
		if (!nm->name[st->seat])
			return -1;
	}
	if (!(*names = arena_alloc(p->a, sizeof(char *) * GAME_MAX_SEATS)))
		return -1;
	memcpy(*names, nm->name, sizeof nm->name);
	return 0;
}

static int table_view(struct page *p, struct play_table *pt, struct view *v, int note_kind,
		      const char *note, const char *typed)
{
	const struct game *g = pt->g;
	const struct st_table *t = &pt->t;
	struct names nm = { { 0 } };
	const char **names;
	if (seat_names(p, pt, &nm, &names) != 0)
		return -1;

	int me = pt->my_seat;
	struct act a;
	act_of(pt, &a);
	int turn = a.turn;
	const char *move_url = page_table_url(p, t->id, "/move");
	const char *table_url = page_table_url(p, t->id, "");
	if (!move_url || !table_url)
		return -1;

	view_num(v, "table_id", t->id);
	/* never t->version: it counts the others' hidden steps (a pass) too */
	view_num(v, "version", pt->seen);
	view_num(v, "public_version", t->public_version);
	view_global_num(v, "v", pt->seen);   /* the move form's (move-form.tpl) */
	view_str(v, "game_slug", g->slug);
	view_str(v, "game_title", g->title);
	view_str(v, "game_tagline", g->tagline ? _(g->tagline) : "");
	view_str(v, "game_summary", g->summary ? _(g->summary) : "");
	view_str(v, "status", status_names[t->status]);
	view_flag(v, t->status == TABLE_OPEN ? "is_open" :
		     t->status == TABLE_PLAYING ? "is_playing" : "is_finished", 1);
	view_flag(v, "watching", me < 0 && t->status == TABLE_PLAYING);
	view_global_str(v, "move_url", move_url);
	view_str(v, "invite_path", table_url);
	view_str(v, "table_url", table_url);
	view_str(v, "join_url", page_table_url(p, t->id, "/join"));
	view_str(v, "leave_url", page_table_url(p, t->id, "/leave"));
	view_num(v, "nseats", t->nseats);
	view_num(v, "seats_taken", pt->nseated);
	view_num(v, "party_number", pt->has_party ? pt->party.number + 1 : 0);
	view_num(v, "nparties", t->nparties);
	view_flag(v, t->nparties <= 1 ? "single_party" : "multi_party", 1);
	view_num(v, "my_seat", me);
	view_str(v, "my_seat_name", me >= 0 ? nm.name[me] : "");
	view_flag(v, "seated", me >= 0);
	view_flag(v, "can_act", a.can_act);
	view_num(v, "turn_seat", turn);
	view_str(v, "turn_seat_name", turn >= 0 && turn < GAME_MAX_SEATS && nm.name[turn] ?
					   nm.name[turn] : "");
	/* with clocks the table's next deadline: over days the clocks stand
	 * in for the game's deadlines, and a clock's end is one too */
	view_num(v, "deadline", !a.playing ? 0 : t->clock.first_ms > 0 ? t->next_deadline
									  : pt->status.deadline);
	const char *mine = NULL;
	int expired = 0;
	status_line(p, pt, &a, v, &mine, &expired);
	view_flag(v, "can_join", p->user_id && me < 0 && t->status == TABLE_OPEN &&
				       pt->nseated < t->nseats);
	view_flag(v, "can_leave", me >= 0 && t->status == TABLE_OPEN);
	view_flag(v, "login_needed", !p->user_id && t->status == TABLE_OPEN);
	page_options_view_at(p, v, g, t->options, t->clock.first_ms > 0 && t->clock.windows);

	view_str(v, "speed", page_speed_text(p->a, t));
	view_flag(v, "closed_idle", t->closed_idle);
	view_flag(v, "closed_broken", pt->broken);
	view_flag(v, "table_has_clock", t->clock.first_ms > 0);
	seats_view(p, pt, &a, &nm, v);
	seat_actions_view(p, pt, v);
	invite_view(p, pt, v);
	invites_view(p, pt, v);
	view_list(v, "moves");
	if (a.can_act)
		g->moves(pt->state, me, emit_move, v);
	view_flag(v, "show_typed", me >= 0 && a.playing && (a.can_act || (typed && *typed)));
	view_str(v, "typed", typed ? typed : "");

	if (note) {
		view_begin(v, "note");
		view_str(v, "kind", note_kinds[note_kind]);
		view_flag(v, note_kinds[note_kind], 1);
		view_str(v, "text", note);
		view_end(v);
	}

	status_bar_view(p, pt, &a, &nm, mine, expired, v);
	if (pt->has_party && board_view(p, pt, &a, move_url, names, v) != 0)
		return -1;
	if (party_end_view(p, pt, v, names) != 0)
		return -1;
	scores_view(pt, v, &nm);
	page_replay_links(p, pt, v);   /* replays, "Seit deinem letzten Zug" (page-replay.c) */
	if (page_chat_view(p, t->id, me >= 0, pt->has_chat, v) != 0)
		return -1;
	return logs_view(p, pt, v, &nm);
}


/* Section "tournament" of a tournament's table: its name, round, number
 * and link (read with the table, play_load). */
static void tourney_view(struct page *p, const struct play_table *pt, struct view *v)
{
	const struct st_table_tourney *x = &pt->tourney;
	if (!pt->in_tourney)
		return;
	view_begin(v, "tournament");
	view_str(v, "name", x->name);
	view_str(v, "url", page_tourney_url(p, x->id, ""));
	view_num(v, "round", x->round);
	view_num(v, "number", x->number + 1);
	view_end(v);
}

/* Loads table p->id and answers with its page (or JSON when `json`) with
 * `status` and an optional note: 404/503/500 when it cannot be loaded. */
static void show(struct page *p, int json, enum http_status status, int note_kind,
		 const char *note, const char *typed)
{
	/* (not zeroed here: play_load zeroes it first) */
	struct play_table *pt = arena_alloc_raw(p->a, sizeof *pt);
	if (!pt) {
		page_error(p, HTTP_500, "internal");
		return;
	}
	int rc = play_load(p->store, p->id, p->user_id, p->now_ms, pt);
	if (rc != PLAY_OK) {
		play_free(pt);
		page_fail_as(p, rc, "notable");
		return;
	}
	if (!page_may_watch(p, &pt->t, pt->my_seat)) {   /* "Zuschauer erlaubt" (page-replay.c) */
		play_free(pt);
		page_error(p, HTTP_403, "nowatch");
		return;
	}
	struct view v;
	if (json)
		page_view_json(p, &v);   /* no tree: the JSON written as it is made */
	else {
		page_view(p, &v);
		v.html_only = 1;   /* a tree page_html alone reads */
	}
	if (table_view(p, pt, &v, note_kind, note, typed) != 0) {
		play_free(pt);
		page_error(p, HTTP_500, "internal");
		return;
	}
	tourney_view(p, pt, &v);
	struct act a;
	act_of(pt, &a);
	/* The game's stylesheet comes with its board template. */
	char *file = arena_printf(p->a, "game-%s.tpl", pt->g->slug);
	int board = file && tmpl_exists(file);
	int running = pt->t.status == TABLE_PLAYING || pt->t.status == TABLE_OPEN;
	/* Without script the page refreshes itself only while the viewer has
	 * nothing to do: a refresh would wipe a move being typed. */
	int refresh = running && !a.can_act && !(typed && *typed) && !p->chat_text;
	view_flag(&v, "reload_link", running && !refresh);
	struct page_head h = {
		.title = pt->g->title,
		.game_slug = board ? pt->g->slug : NULL,
		/* a finished table polls too: its chat, and the next match */
		.poll_url = page_table_url(p, pt->t.id, "/poll"),
		.table_url = page_table_url(p, pt->t.id, ""),
		.version = pt->t.public_version,   /* what the poll compares */
		.alert = a.my_turn ? _("Du bist dran!") :
			 a.in_window ? _("Du kannst eingreifen!") :
			 a.ask == PLAY_ASK_CONTINUE ? _("Partie vorbei: weiter?") : NULL,
		.refresh = refresh,
		.attention = a.ask != PLAY_ASK_NONE,
		.waiting_known = pt->viewer_waiting >= 0,
		.waiting = pt->viewer_waiting,
	};
	play_free(pt);
	if (json)
		page_json(p, status, &v);
	else
		page_html(p, status, "table.tpl", &v, &h);
}

/* ---- the note of a refused POST, carried across the redirect ----------
 * A browser that sent a form always ends on the table's GET URL (a page
 * that reloads may never send anything again). The note and the typed move
 * travel in a short-lived cookie, signed with a key derived from the
 * session's CSRF token: only the server can write a note that is shown,
 * and only to the browser it was meant for, only on that table. */
#define NOTE_COOKIE "stn"
/* (the typed text is a move, or a chat message of up to 4 bytes a character) */
enum { NOTE_MAX_AGE = 120, NOTE_TYPED_MAX = GAME_MOVE_MAX > 4 * CHAT_CHARS_MAX ? GAME_MOVE_MAX :
									      4 * CHAT_CHARS_MAX,
       NOTE_PAYLOAD_MAX = 32 + NOTE_TYPED_MAX + GAME_ERR_MAX };
_Static_assert((NOTE_PAYLOAD_MAX + crypto_auth_BYTES) * 4 / 3 + 8 <= HTTP_COOKIE_VALUE_MAX,
	       "a note fits in a cookie");

/* The signing key of this session's notes. */
static void note_key(const struct page *p, unsigned char key[crypto_auth_KEYBYTES])
{
	static const char what[] = "spieltisch note";
	crypto_generichash(key, crypto_auth_KEYBYTES, (const unsigned char *)what,
			   sizeof what - 1, (const unsigned char *)p->csrf, strlen(p->csrf));
}

/* Copies s into out at *len, control characters as blanks (the payload's
 * separator is a newline). */
static void note_put(char *out, size_t *len, const char *s)
{
	for (; *s && *len < NOTE_PAYLOAD_MAX - 2; s++)
		out[(*len)++] = (unsigned char)*s < 0x20 ? ' ' : *s;
	out[(*len)++] = '\n';
}

/* Sets the note cookie for table p->id: kind, the note, the typed move. */
static void note_set(struct page *p, int kind, const char *note, const char *typed)
{
	char pay[NOTE_PAYLOAD_MAX + 1];
	size_t n = (size_t)snprintf(pay, sizeof pay, "%lld\n%d\n", (long long)p->id, kind);
	note_put(pay, &n, typed ? typed : "");
	note_put(pay, &n, note ? note : "");
	unsigned char key[crypto_auth_KEYBYTES], mac[crypto_auth_BYTES];
	note_key(p, key);
	crypto_auth(mac, (const unsigned char *)pay, n, key);
	size_t b1 = sodium_base64_ENCODED_LEN(n, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	size_t b2 = sodium_base64_ENCODED_LEN(sizeof mac, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	char *val = arena_alloc(p->a, b1 + b2 + 1);
	if (!val)
		return;   /* the redirect still happens, without the note */
	sodium_bin2base64(val, b1, (const unsigned char *)pay, n,
			  sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	size_t at = strlen(val);
	val[at++] = '.';
	sodium_bin2base64(val + at, b2, mac, sizeof mac, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	http_set_cookie(&p->resp, NOTE_COOKIE, val, NOTE_MAX_AGE);
}

/* Reads (and deletes) the note cookie: 1 with kind, note and typed move
 * (in the arena) when it is there, signed for this session and this table. */
static int note_take(struct page *p, int *kind, const char **note, const char **typed)
{
	const char *c = http_get(&p->req->cookies, NOTE_COOKIE);
	if (!c)
		return 0;
	http_set_cookie(&p->resp, NOTE_COOKIE, "", 0);
	const char *dot = strchr(c, '.');
	unsigned char pay[NOTE_PAYLOAD_MAX + 1], mac[crypto_auth_BYTES], key[crypto_auth_KEYBYTES];
	size_t n = 0, m = 0;
	if (!dot || !p->csrf[0] ||
	    sodium_base642bin(pay, NOTE_PAYLOAD_MAX, c, (size_t)(dot - c), NULL, &n, NULL,
			      sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
	    sodium_base642bin(mac, sizeof mac, dot + 1, strlen(dot + 1), NULL, &m, NULL,
			      sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 || m != sizeof mac)
		return 0;
	note_key(p, key);
	if (crypto_auth_verify(mac, pay, n, key) != 0)
		return 0;
	pay[n] = '\0';
	char *f[4], *q = (char *)pay;
	for (int i = 0; i < 4; i++) {
		f[i] = q;
		q = strchr(q, '\n');
		if (!q)
			return 0;
		*q++ = '\0';
	}
	long long table = 0, k = 0;
	if (http_int(f[0], 1, INT64_MAX, &table) != 0 || table != p->id ||
	    http_int(f[1], NOTE_STALE, NOTE__MAX - 1, &k) != 0)
		return 0;
	*kind = (int)k;
	*typed = arena_strdup(p->a, f[2]);
	*note = arena_strdup(p->a, f[3]);
	return *typed && *note;
}

/* 1 when the client is a browser (it takes HTML): it gets a redirect. */
static int browser(const struct page *p)
{
	return !p->req->wants_json && strstr(p->req->accept, "text/html") != NULL;
}

/* The answer to a refused POST: a browser is sent back to the table with
 * the note (303); JSON clients, and clients that do not ask for HTML, get
 * the fresh table with `status` and the note. */
static void refused(struct page *p, enum http_status status, int kind, const char *note,
		    const char *typed)
{
	if (browser(p)) {
		note_set(p, kind, note, typed);
		page_redirect_table(p, p->id, "#spiel");
		return;
	}
	show(p, p->req->wants_json, status, kind, note, typed);
}

void page_table_chat_refused(struct page *p, enum http_status status, const char *note,
			     const char *text)
{
	if (browser(p)) {
		note_set(p, NOTE_CHAT, note, text);
		page_redirect_table(p, p->id, "?chat#chat");
		return;
	}
	p->chat_note = note;
	p->chat_text = text;
	page_table_show(p, status);
}

/* GET /t/<id>: the page, or the JSON twin when Accept asks for JSON; the
 * note of a refused POST just before, if any. 200, 404, 503, 500. */
void page_table(struct page *p)
{
	int kind = NOTE_NONE;
	const char *note = NULL, *typed = NULL;
	if (!p->req->wants_json && !note_take(p, &kind, &note, &typed)) {
		kind = NOTE_NONE;
		note = typed = NULL;
	}
	if (kind == NOTE_CHAT) {   /* back in the chat card, not as the page's note */
		p->chat_note = note;
		p->chat_text = typed;
		kind = NOTE_NONE;
		note = typed = NULL;
	}
	if (http_get(&p->req->query, "chat") && !p->chat_text)
		p->chat_text = "";   /* ?chat: writing without script, no meta refresh */
	show(p, p->req->wants_json, HTTP_200, kind, note, typed);
}

/* GET /t/<id>.json: the JSON twin. 200, 404, 503, 500. */
void page_table_json(struct page *p)
{
	show(p, 1, HTTP_200, NOTE_NONE, NULL, NULL);
}

/* The page after a refused chat POST (page-chat.c): see page.h. */
void page_table_show(struct page *p, enum http_status status)
{
	show(p, p->req->wants_json, status, NOTE_NONE, NULL, NULL);
}

enum { MV_ARGS = 10 };   /* a composed move's fields: arg0 … arg9 */
enum mv_field { MV_CSRF, MV_V, MV_MOVE, MV_ARG0, MV__MAX = MV_ARG0 + MV_ARGS };
#define MV_ARG_RULE(k) [MV_ARG0 + k] = { "arg" #k, HTTP_V_TEXT, 0, 0, GAME_MOVE_MAX }
static const struct http_rule mv_rules[] = {
	[MV_CSRF] = { "csrf", HTTP_V_TEXT, 1, 1, 64 },
	[MV_V] = { "v", HTTP_V_INT, 1, 0, INT64_MAX },
	[MV_MOVE] = { "move", HTTP_V_TEXT, 1, 0, GAME_MOVE_MAX },
	MV_ARG_RULE(0), MV_ARG_RULE(1), MV_ARG_RULE(2), MV_ARG_RULE(3), MV_ARG_RULE(4),
	MV_ARG_RULE(5), MV_ARG_RULE(6), MV_ARG_RULE(7), MV_ARG_RULE(8), MV_ARG_RULE(9),
};
#undef MV_ARG_RULE
_Static_assert(sizeof mv_rules / sizeof mv_rules[0] == MV__MAX, "mv_rules");

/* A composed move (docs/views.md): the form's `move`, then the non-empty
 * fields arg0 … arg9 in that order, joined by blanks; e.g. the dice ticked
 * in a keep form: "keep" + arg1 "6" + arg3 "6" → "keep 6 6". The move text
 * in the arena, or NULL when it would be longer than a move may be. */
static const char *mv_compose(struct page *p, const struct http_value *f)
{
	size_t n = strlen(f[MV_MOVE].s);
	for (int i = 0; i < MV_ARGS; i++)
		if (f[MV_ARG0 + i].s[0])
			n += 1 + strlen(f[MV_ARG0 + i].s);
	if (n > GAME_MOVE_MAX)
		return NULL;
	char *t = arena_alloc(p->a, n + 1);
	if (!t)
		return NULL;
	size_t at = strlen(f[MV_MOVE].s);
	memcpy(t, f[MV_MOVE].s, at);
	for (int i = 0; i < MV_ARGS; i++) {
		const char *w = f[MV_ARG0 + i].s;
		size_t len = strlen(w);
		if (!len)
			continue;
		if (at)
			t[at++] = ' ';
		memcpy(t + at, w, len);
		at += len;
	}
	t[at] = '\0';
	return t;
}

/* POST /t/<id>/move (csrf, v, move, arg0 … arg9): 303 back to the table's board on
 * success (post/redirect/get). A refusal changes nothing; a browser gets
 * the 303 too, the note and the typed move follow in the note cookie; other
 * clients get the fresh table with the note and 409 (stale page, a race
 * lost, not playing), 422 (the rules refused the move), 403 (no seat here).
 * 404, 400, 503, 500. */
void page_table_move(struct page *p)
{
	struct http_value f[MV__MAX];
	enum http_err err = http_validate(&p->req->form, mv_rules, MV__MAX, f);
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	const char *move = mv_compose(p, f);
	if (!move) {
		refused(p, HTTP_422, NOTE_REJECTED, _("Dieser Zug ist zu lang."), f[MV_MOVE].s);
		return;
	}
	struct rerr e = { .msg = "" };
	int rc = play_move(p->store, p->id, p->user_id, move, f[MV_V].n, p->now_ms, &e);
	const char *note = e.msg[0] ? i18n_rerr(&e) : _(play_message(rc));
	switch (rc) {
	case PLAY_OK:
		page_redirect_table(p, p->id, "#spiel");
		return;
	case PLAY_STALE:
	case PLAY_NOT_PLAYING:
		refused(p, HTTP_409, NOTE_STALE, note, NULL);
		return;
	case PLAY_REJECTED:
		refused(p, HTTP_422, NOTE_REJECTED, note, move);
		return;
	case PLAY_NOT_SEATED:
		refused(p, HTTP_403, NOTE_REFUSED, note, NULL);
		return;
	default:
		page_fail_as(p, rc, "notable");
	}
}

/* 1 when the table p->id no longer exists (its last person left it). */
static int table_gone(struct page *p)
{
	struct st_table t;
	return store_table_get(p->store, p->id, &t) == ST_NOTFOUND;
}

/* Join or leave: 303 back to the table (to the lobby when the last
 * person left and the table is gone); a refusal is a 303 with the note
 * for a browser, the page with the note (409) for other clients; 404, 503,
 * 500. */
static void seat_change(struct page *p, int join)
{
	if (!page_csrf_only(p))
		return;
	struct rerr e = { .msg = "" };
	int rc = join ? play_join(p->store, p->id, p->user_id, p->now_ms, &e) :
			play_leave(p->store, p->id, p->user_id, p->now_ms, &e);
	const char *note = e.msg[0] ? i18n_rerr(&e) : _(play_message(rc));
	switch (rc) {
	case PLAY_OK:
		if (!join && table_gone(p)) {
			page_redirect(p, "/");   /* the last person left: the table is gone */
			return;
		}
		page_redirect_table(p, p->id, "");
		return;
	case PLAY_FULL:
	case PLAY_ALREADY:
	case PLAY_NOT_PLAYING:
	case PLAY_NOT_SEATED:
	case PLAY_STALE:
		refused(p, HTTP_409, NOTE_REFUSED, note, NULL);
		return;
	case PLAY_NOT_FOUND:
		if (!join) {
			/* The last seat left: the table is gone. */
			page_redirect(p, "/");
			return;
		}
		/* fall through */
	default:
		page_fail_as(p, rc, "notable");
	}
}

/* A seat action that went through, for a browser: 303 back to the table
 * with `note` saying what happened (post/redirect/get). */
static void done_note(struct page *p, const char *note)
{
	note_set(p, NOTE_DONE, note, NULL);
	page_redirect_table(p, p->id, "#spiel");
}

/* After a seat action: 303 back to the table; a refusal is a 303 with
 * the note (409 with the page for other clients); 404, 503, 500. */
static void seat_answer(struct page *p, int rc, const struct rerr *e)
{
	const char *note = e->msg[0] ? i18n_rerr(e) : _(play_message(rc));
	switch (rc) {
	case PLAY_OK:
		page_redirect_table(p, p->id, "");
		return;
	case PLAY_FULL:
	case PLAY_ALREADY:
	case PLAY_STALE:
	case PLAY_NOT_PLAYING:
	case PLAY_NOT_SEATED:
	case PLAY_REJECTED:
	case PLAY_INVALID:
		refused(p, HTTP_409, NOTE_REFUSED, note, NULL);
		return;
	default:
		page_fail_as(p, rc, "notable");
	}
}

/* POST /t/<id>/invite, name: see play_invite; 303 back to the table with
 * a note on it, or 409 with the table and the reason. */
void page_table_invite(struct page *p)
{
	static const struct http_rule rules[] = { { "csrf", HTTP_V_TEXT, 1, 1, 64 },
						  { "name", HTTP_V_TEXT, 1, 1, ST_NAME_MAX } };
	struct http_value f[2];
	enum http_err err = http_validate(&p->req->form, rules, 2, f);
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	struct rerr e = { .msg = "" };
	char name[ST_NAME_MAX + 1];
	if (text_clean(f[1].s, name, sizeof name, NULL, &e) != 0) {
		seat_answer(p, PLAY_REJECTED, &e);
		return;
	}
	int rc = play_invite(p->store, p->id, p->user_id, name, p->now_ms, &e);
	if (rc == PLAY_OK && browser(p))
		done_note(p, arena_printf(p->a, _("%s ist eingeladen: die Einladung steht jetzt auf "
						  "„Meine Tische“ und unten in der Liste."), name));
	else
		seat_answer(p, rc, &e);
}

/* POST /t/<id>/uninvite, invite=<id>: see invite_withdraw; 303 back to
 * the table with a note, or 409 with the table and the reason. */
void page_table_uninvite(struct page *p)
{
	static const struct http_rule rules[] = { { "csrf", HTTP_V_TEXT, 1, 1, 64 },
						  { "invite", HTTP_V_INT, 1, 1, INT64_MAX } };
	struct http_value f[2];
	enum http_err err = http_validate(&p->req->form, rules, 2, f);
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	struct rerr e = { .msg = "" };
	char name[ST_NAME_MAX + 1];
	int rc = invite_withdraw(p->store, p->id, p->user_id, f[1].n, name, sizeof name, &e);
	if (rc == PLAY_OK && browser(p))
		done_note(p, arena_printf(p->a, _("Die Einladung an %s ist zurückgezogen."), name));
	else
		seat_answer(p, rc, &e);
}

/* POST /t/<id>/rematch: see play_rematch; 303 to the new table. */
void page_table_rematch(struct page *p)
{
	if (!page_csrf_only(p))
		return;
	struct rerr e = { .msg = "" };
	int64_t next = 0;
	int rc = play_rematch(p->store, p->id, p->user_id, p->now_ms, &next, &e);
	if (rc == PLAY_OK)
		page_redirect_table(p, next, "");
	else
		seat_answer(p, rc, &e);
}

/* POST /t/<id>/bot, level=random|greedy: a bot takes a free seat of an
 * open table (see play_add_bot). */
void page_table_bot(struct page *p)
{
	static const struct http_rule rules[] = { { "csrf", HTTP_V_TEXT, 1, 1, 64 },
						  { "level", HTTP_V_TEXT, 1, 1, 16 } };
	struct http_value f[2];
	enum http_err err = http_validate(&p->req->form, rules, 2, f);
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	int level = strcmp(f[1].s, "random") == 0 ? BOT_RANDOM :
		    strcmp(f[1].s, "greedy") == 0 ? BOT_GREEDY : -1;
	struct rerr e = { .msg = "" };
	seat_answer(p, play_add_bot(p->store, p->id, p->user_id, level, p->now_ms, &e), &e);
}

/* POST /t/<id>/seat, act=bot|back|resign: see play_seat;
 * act=autopass_on|autopass_off: see play_autopass; act=expel with seat=N:
 * see play_expel; act=claim with seat=N: see play_claim. */
void page_table_seat(struct page *p)
{
	static const struct http_rule rules[] = { { "csrf", HTTP_V_TEXT, 1, 1, 64 },
						  { "act", HTTP_V_TEXT, 1, 1, 16 },
						  { "seat", HTTP_V_INT, 0, 0, GAME_MAX_SEATS - 1 } };
	static const char *const acts[PLAY_SEAT__MAX] = { "bot", "back", "resign" };
	static const char *const passes[2] = { "autopass_off", "autopass_on" };
	struct http_value f[3];
	enum http_err err = http_validate(&p->req->form, rules, 3, f);
	/* f[] is filled only up to a field that failed: read it after !err */
	int targeted = !err && (strcmp(f[1].s, "expel") == 0 || strcmp(f[1].s, "claim") == 0);
	if (!err && targeted && !f[2].present)
		err = HTTP_E_MISSING;
	if (err) {
		page_error(p, http_err_status(err), http_err_key(err));
		return;
	}
	struct rerr e = { .msg = "" };
	if (targeted) {
		int q = (int)f[2].n;
		seat_answer(p, strcmp(f[1].s, "expel") == 0 ?
				       play_expel(p->store, p->id, p->user_id, q, p->now_ms, &e) :
				       play_claim(p->store, p->id, p->user_id, q, p->now_ms, &e), &e);
		return;
	}
	int act = 0;
	while (act < PLAY_SEAT__MAX && strcmp(f[1].s, acts[act]) != 0)
		act++;
	for (int on = 0; on < 2; on++)
		if (strcmp(f[1].s, passes[on]) == 0) {
			seat_answer(p, play_autopass(p->store, p->id, p->user_id, on, p->now_ms, &e),
				    &e);
			return;
		}
	if (act == PLAY_SEAT__MAX) {
		play_fail(&e, PLAY_INVALID, N_("Das geht mit einem Platz nicht."));
		seat_answer(p, PLAY_INVALID, &e);
		return;
	}
	seat_answer(p, play_seat(p->store, p->id, p->user_id, (enum play_seat_act)act, p->now_ms,
				 &e), &e);
}

/* POST /t/<id>/join: see seat_change. */
void page_table_join(struct page *p)
{
	seat_change(p, 1);
}

/* POST /t/<id>/leave: see seat_change. */
void page_table_leave(struct page *p)
{
	seat_change(p, 0);
}
