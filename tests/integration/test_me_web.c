/*
 * test_me_web.c — "Meine Tische" and the lobby through real nginx:
 *   - /me polls like a table (204 while none of my tables changed, 200 once
 *     another player moved at one of them, not for a table I left), and
 *     every page counts the tables waiting for me in its tab title and
 *     shows the favicon with its badge while I may act anywhere; my clock's
 *     time at a table over days;
 *   - the lobby names who opened an open table and lists running tables to
 *     watch; a visitor there is told "Du schaust zu" and gets no move;
 *   - a waiting table's seats taken ("wartet (2/3)"), a running one's all;
 *   - inviting by name shows on the invitee's /me; at a match's end "Noch
 *     ein Match" opens a new table with the same game and people, one
 *     table however many ask, and the other's click there starts it;
 *   - "Meine Turniere" lists the tournaments I am registered at.
 * Bounded: loops over the network stop after MAX_POSTS moves or
 * MAX_SECONDS.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "integration/suite.h"

enum { MAX_POSTS = 2000, MAX_SECONDS = 120 };

enum { POLL_URL_MAX = 96 };

/* The status of GET <url>?v=sig for c (url: the page's data-poll). */
static long me_poll(struct h_client *c, const char *url, long long sig)
{
	char path[POLL_URL_MAX + 32];
	struct h_resp r;
	snprintf(path, sizeof path, "%.*s?v=%lld", (int)POLL_URL_MAX, url, sig);
	assert_int_equal(h_get(c, path, &r), 0);
	long st = r.status;
	h_resp_free(&r);
	return st;
}

/* GET /me for c: the page's poll version (data-version) into *sig, its
 * poll address (data-poll: /me/poll/ and the user's 43-character token)
 * into url; the page in r (the caller frees it). */
static void me_page(struct h_client *c, struct h_resp *r, long long *sig,
		    char url[POLL_URL_MAX])
{
	assert_int_equal(h_get(c, "/me", r), 0);
	assert_int_equal(r->status, 200);
	const char *u = strstr(r->body, "data-poll=\"/me/poll/");
	assert_non_null(u);
	u += strlen("data-poll=\"");
	size_t n = strcspn(u, "\"");
	assert_int_equal(n, strlen("/me/poll/") + 43);
	memcpy(url, u, n);
	url[n] = '\0';
	const char *v = strstr(r->body, "data-version=\"");
	assert_non_null(v);
	*sig = strtoll(v + 14, NULL, 10);
}

static uint64_t rnd = 7;

/* Whoever of who[] may act plays a legal move (a random one of its list);
 * 1 if one did. */
static int someone_moves(struct h_client **who, int n, int64_t id)
{
	long status;
	for (int i = 0; i < n; i++) {
		json_t *o = it_table_json(who[i], id, &status);
		json_t *mv = json_object_get(o, "moves");
		if (json_is_true(json_object_get(o, "can_act")) && json_array_size(mv) > 0) {
			rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
			size_t k = (size_t)(rnd >> 33) % json_array_size(mv);
			long st = it_move(who[i], id, it_jstr(o, "csrf"), it_jint(o, "version", -1),
					  it_jstr(json_array_get(mv, k), "move"));
			json_decref(o);
			assert_true(st == 303 || st == 409);
			return 1;
		}
		json_decref(o);
	}
	return 0;
}

/* What each of the n players is asked at table id (the JSON's "asked"). */
static void asked_at(struct h_client **who, int n, int64_t id, char out[][16])
{
	long status;
	for (int i = 0; i < n; i++) {
		json_t *o = it_table_json(who[i], id, &status);
		assert_non_null(o);
		snprintf(out[i], 16, "%s", it_jstr(o, "asked"));
		json_decref(o);
	}
}

/* The row of table id in the "mine" list of /me's JSON twin o, or NULL. */
static json_t *mine_row(json_t *o, int64_t id)
{
	json_t *mine = json_object_get(o, "mine");
	for (size_t i = 0; i < json_array_size(mine); i++)
		if (it_jint(json_array_get(mine, i), "id", -1) == id)
			return json_array_get(mine, i);
	return NULL;
}

/* The clock table id shows c's own seat ("clock" of its seat in the JSON
 * twin), into out. */
static void seat_clock(struct h_client *c, int64_t id, char *out, size_t cap)
{
	long st;
	json_t *o = it_table_json(c, id, &st);
	assert_non_null(o);
	json_t *seat = json_array_get(json_object_get(o, "seats"),
				      (size_t)it_jint(o, "my_seat", -1));
	assert_non_null(seat);
	snprintf(out, cap, "%s", it_jstr(seat, "clock"));
	json_decref(o);
}

/* /me shows c's clock at table id as the table shows it (the listing reads
 * the seat's clock from its row only at a table with a clock: issue 35):
 * the table's text before or after /me's (an hour may turn in between). */
static void check_my_clock(struct h_client *c, int64_t id)
{
	char before[64], after[64];
	struct h_resp r;
	seat_clock(c, id, before, sizeof before);
	h_client_accept(c, "application/json");
	assert_int_equal(h_get(c, "/me", &r), 0);
	h_client_accept(c, NULL);
	assert_int_equal(r.status, 200);
	json_t *o = json_loads(r.body, 0, NULL);
	h_resp_free(&r);
	assert_non_null(o);
	json_t *x = mine_row(o, id);
	assert_non_null(x);
	assert_true(json_is_true(json_object_get(x, "has_my_clock")));
	const char *mine = it_jstr(x, "my_clock");
	seat_clock(c, id, after, sizeof after);
	assert_true(mine[0] != '\0');
	assert_true(strcmp(mine, before) == 0 || strcmp(mine, after) == 0);
	json_decref(o);
}

static void test_my_tables_poll_and_mark(void **unused)
{
	(void)unused;
	struct h_client *p[3] = { it_register("Ida"), it_register("Jonas"), it_register("Kim") };
	for (int i = 0; i < 3; i++)
		assert_non_null(p[i]);
	/* Ida and Jonas play over days; Kim has a table of her own */
	int64_t id = it_create_table(p[0], "drehwurm", 3, "speed", "days", "clock_days", "3", NULL);
	assert_true(id > 0);
	assert_int_equal(it_join(p[1], id), 0);
	int64_t other = it_create_table(p[2], "dna", 2, NULL);
	assert_true(other > 0);
	assert_int_equal(it_join(p[2], id), 0);   /* the last seat: the party starts */

	struct h_resp r;
	long long sig[3];
	char url[3][POLL_URL_MAX];
	for (int i = 0; i < 3; i++) {
		me_page(p[i], &r, &sig[i], url[i]);
		h_resp_free(&r);
		assert_int_equal(me_poll(p[i], url[i], sig[i]), 204);
		assert_int_equal(me_poll(p[i], "/me/poll", sig[i]), 204);   /* by session */
	}
	/* the poll address needs no session; it is each user's own; a made-up
	 * one is a 404, like one with a character too many */
	struct h_client *anon = h_client_new();
	assert_int_equal(me_poll(anon, url[0], sig[0]), 204);
	assert_true(strcmp(url[0], url[1]) != 0);
	char forged[POLL_URL_MAX + 1];
	snprintf(forged, sizeof forged, "%s", url[0]);
	forged[strlen(forged) - 1] = forged[strlen(forged) - 1] == 'A' ? 'B' : 'A';
	assert_int_equal(me_poll(anon, forged, sig[0]), 404);
	snprintf(forged, sizeof forged, "%sA", url[0]);
	assert_int_equal(me_poll(anon, forged, sig[0]), 404);
	h_client_free(anon);
	me_page(p[0], &r, &sig[0], forged);   /* the same address every time */
	h_resp_free(&r);
	assert_string_equal(forged, url[0]);
	/* somebody moves at the common table: the page of everyone whose
	 * "Meine Tische" it changes (asked to act or no longer: the mover at
	 * least) notices, and only theirs (docs/storage.md) */
	char before[3][16], after[3][16];
	int changed = 0;
	for (int k = 0; k < 8 && !changed; k++) {
		for (int i = 0; k > 0 && i < 3; i++) {   /* each page as it is now */
			me_page(p[i], &r, &sig[i], url[i]);
			h_resp_free(&r);
		}
		asked_at(p, 3, id, before);
		if (!someone_moves(p, 3, id))
			continue;
		asked_at(p, 3, id, after);
		for (int i = 0; i < 3; i++) {
			int differs = strcmp(before[i], after[i]) != 0;
			changed += differs;
			assert_int_equal(me_poll(p[i], url[i], sig[i]), differs ? 200 : 204);
		}
	}
	assert_true(changed > 0);
	/* a table Ida does not sit at changes: her page does not */
	me_page(p[0], &r, &sig[0], url[0]);
	h_resp_free(&r);
	char path[64], csrf[128];
	snprintf(path, sizeof path, "/t/%lld", (long long)other);
	assert_int_equal(it_csrf(p[2], path, csrf, sizeof csrf), 0);
	snprintf(path, sizeof path, "/t/%lld/leave", (long long)other);
	assert_int_equal(h_post_form(p[2], path, &r, "csrf", csrf, NULL), 0);
	assert_int_equal(r.status, 303);
	h_resp_free(&r);
	assert_int_equal(me_poll(p[0], url[0], sig[0]), 204);

	/* whoever may act sees the count in the title, the badge, the clock */
	int waiting = 0;
	for (int i = 0; i < 3; i++) {
		long long s;
		char u[POLL_URL_MAX];
		me_page(p[i], &r, &s, u);
		int mine = strstr(r.body, "Du bist dran!") != NULL ||
			   strstr(r.body, "Fenster offen") != NULL;
		waiting += mine;
		/* read from the seat's row (no party loaded): as the table says */
		long js;
		json_t *o = it_table_json(p[i], id, &js);
		assert_int_equal(json_is_true(json_object_get(o, "can_act")), mine);
		json_decref(o);
		assert_int_equal(strstr(r.body, "data-alert=\"Du bist dran!\"") != NULL, mine);
		/* the alert leads the title without script too */
		assert_int_equal(strstr(r.body, "<title>Du bist dran! · (1) Meine Tische") != NULL, mine);
		assert_int_equal(strstr(r.body, "favicon-turn.svg") != NULL, mine);
		assert_non_null(strstr(r.body, "Deine Uhr:"));
		h_resp_free(&r);
		check_my_clock(p[i], id);
		/* every page counts and badges it, the lobby too */
		assert_int_equal(h_get(p[i], "/", &r), 0);
		assert_int_equal(strstr(r.body, "<title>(1) Lobby") != NULL, mine);
		assert_int_equal(strstr(r.body, "favicon-turn.svg") != NULL, mine);
		h_resp_free(&r);
	}
	assert_true(waiting >= 1);
	print_message("my tables: polls 204 until a move at my table, 200 after; %d of 3 waited\n",
		      waiting);
}

static void test_lobby_host_and_watching(void **unused)
{
	(void)unused;
	struct h_client *host = it_register("Lotte"), *guest = it_register("Mats"),
			*visitor = it_register("Nele");
	assert_non_null(host);
	assert_non_null(guest);
	assert_non_null(visitor);
	int64_t id = it_create_table(host, "dna", 2, NULL);
	assert_true(id > 0);
	struct h_resp r;
	char want[96];
	assert_int_equal(h_get(visitor, "/", &r), 0);
	snprintf(want, sizeof want, "Tisch %lld · ", (long long)id);
	const char *row = strstr(r.body, want);
	assert_non_null(row);
	assert_non_null(strstr(row, "von <a href=\"/u/Lotte\">Lotte</a>"));
	h_resp_free(&r);
	assert_int_equal(it_join(guest, id), 0);   /* full: it runs */
	assert_int_equal(h_get(visitor, "/", &r), 0);
	const char *watch = strstr(r.body, "<h2>Zuschauen</h2>");
	assert_non_null(watch);
	assert_non_null(strstr(watch, want));
	h_resp_free(&r);
	char path[64];
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	assert_int_equal(h_get(visitor, path, &r), 0);
	assert_non_null(strstr(r.body, "Du schaust zu"));
	assert_null(strstr(r.body, "name=\"move\""));
	h_resp_free(&r);
	assert_int_equal(h_get(guest, path, &r), 0);
	assert_null(strstr(r.body, "Du schaust zu"));
	h_resp_free(&r);
}

/* "Meine Tische" counts the seats taken at a table that waits ("wartet
 * (1/3)"), and a table that runs has them all taken (/me reads the count
 * only for the waiting ones: a running table was dealt for all its seats). */
static void test_my_tables_seats_taken(void **unused)
{
	(void)unused;
	struct h_client *a = it_register("Ulla"), *b = it_register("Veit");
	assert_non_null(a);
	assert_non_null(b);
	int64_t open = it_create_table(a, "dna", 3, NULL), run = it_create_table(a, "dna", 2, NULL);
	assert_true(open > 0 && run > 0);
	assert_int_equal(it_join(b, open), 0);
	assert_int_equal(it_join(b, run), 0);   /* full: it runs */
	struct h_resp r;
	assert_int_equal(h_get(a, "/me", &r), 0);
	assert_int_equal(r.status, 200);
	char want[64];
	snprintf(want, sizeof want, "Tisch %lld · ", (long long)open);
	const char *row = strstr(r.body, want);
	assert_non_null(row);
	const char *end = strstr(row, "</li>");
	assert_non_null(end);
	const char *badge = strstr(row, "wartet (2/3)");
	assert_true(badge && badge < end);
	h_resp_free(&r);
	h_client_accept(a, "application/json");
	assert_int_equal(h_get(a, "/me", &r), 0);
	h_client_accept(a, NULL);
	assert_int_equal(r.status, 200);
	json_t *o = json_loads(r.body, 0, NULL);
	h_resp_free(&r);
	assert_non_null(o);
	json_t *x = mine_row(o, open), *y = mine_row(o, run);
	assert_non_null(x);
	assert_non_null(y);
	assert_int_equal(it_jint(x, "seats_taken", -1), 2);
	assert_int_equal(it_jint(x, "nseats", -1), 3);
	assert_string_equal(it_jstr(y, "status"), "playing");
	assert_int_equal(it_jint(y, "seats_taken", -1), 2);
	assert_int_equal(it_jint(y, "nseats", -1), 2);
	json_decref(o);
}

/* "Meine Turniere": a player registered at a tournament finds it on /me
 * (page and JSON); its organizer, registered nowhere, no section and an
 * empty list. /me reads the tournaments only when its one read of the
 * user's row says there are any (store_me_head). */
static void test_my_tournaments(void **unused)
{
	(void)unused;
	struct h_client *org = it_register("Tilde"), *pl = it_register("Torge");
	assert_non_null(org);
	assert_non_null(pl);
	int64_t id = it_create_swiss(org, "Winter-Swiss");
	assert_true(id > 0);
	char path[64], csrf[128];
	struct h_resp r;
	snprintf(path, sizeof path, "/tournaments/%lld", (long long)id);
	assert_int_equal(it_csrf(pl, path, csrf, sizeof csrf), 0);
	snprintf(path, sizeof path, "/tournaments/%lld/register", (long long)id);
	assert_int_equal(h_post_form(pl, path, &r, "csrf", csrf, NULL), 0);
	assert_int_equal(r.status, 303);
	h_resp_free(&r);
	assert_int_equal(h_get(pl, "/me", &r), 0);
	assert_int_equal(r.status, 200);
	snprintf(path, sizeof path, "<a href=\"/tournaments/%lld\">Winter-Swiss</a>", (long long)id);
	const char *sec = strstr(r.body, "my-tournaments");
	assert_non_null(sec);
	assert_non_null(strstr(sec, path));
	h_resp_free(&r);
	struct h_client *who[2] = { pl, org };
	for (int i = 0; i < 2; i++) {   /* the player lists it, the organizer none */
		h_client_accept(who[i], "application/json");
		assert_int_equal(h_get(who[i], "/me", &r), 0);
		h_client_accept(who[i], NULL);
		assert_int_equal(r.status, 200);
		json_t *o = json_loads(r.body, 0, NULL);
		h_resp_free(&r);
		assert_non_null(o);
		json_t *ts = json_object_get(o, "tournaments");
		assert_true(json_is_array(ts));
		assert_int_equal(json_array_size(ts), i == 0 ? 1 : 0);
		if (i == 0)
			assert_string_equal(it_jstr(json_array_get(ts, 0), "name"), "Winter-Swiss");
		json_decref(o);
	}
	assert_int_equal(h_get(org, "/me", &r), 0);
	assert_int_equal(r.status, 200);
	assert_null(strstr(r.body, "my-tournaments"));
	h_resp_free(&r);
}

/* The id of the first withdraw button's invitation on the page, or 0. */
static long long first_invite_id(const char *body)
{
	const char *k = "name=\"invite\" value=\"";
	const char *at = strstr(body, k);
	return at ? strtoll(at + strlen(k), NULL, 10) : 0;
}

/* "Einladen" says that it went through; the table lists the invitations
 * still open to whoever sits there (not to a visitor), and one of them can
 * take one back: it leaves the list and the invitee's "Meine Tische". Nobody
 * else can, and a wrong number changes nothing. */
static void test_invitations_listed_and_withdrawn(void **unused)
{
	(void)unused;
	struct h_client *q = it_register("Quirin"), *rosa = it_register("Rosa"),
			*sven = it_register("Sven"), *visitor = h_client_new();
	assert_non_null(q);
	assert_non_null(rosa);
	assert_non_null(sven);
	h_client_accept(q, "text/html,application/xhtml+xml");   /* a browser: notes */
	assert_true(it_create_table(rosa, "drehwurm", 3, NULL) > 0);
	int64_t id = it_create_table(q, "dna", 3, NULL);
	assert_true(id > 0);
	char path[64], loc[128];
	snprintf(path, sizeof path, "/t/%lld", (long long)id);
	struct h_resp r;
	assert_int_equal(h_get(q, path, &r), 0);
	assert_null(strstr(r.body, "Eingeladen, noch nicht am Tisch"));
	h_resp_free(&r);

	assert_int_equal(it_post_table(q, id, "/invite", "name", "rosa", loc, sizeof loc), 303);
	assert_int_equal(h_get(q, path, &r), 0);
	assert_non_null(strstr(r.body, "class=\"note done\""));
	assert_non_null(strstr(r.body, "rosa ist eingeladen: die Einladung steht jetzt auf"));
	assert_non_null(strstr(r.body, "Eingeladen, noch nicht am Tisch"));
	assert_non_null(strstr(r.body, "<a href=\"/u/Rosa\">Rosa</a> <span class=\"by\">von Quirin</span>"));
	long long inv = first_invite_id(r.body);
	assert_true(inv > 0);
	h_resp_free(&r);
	/* the note was shown once */
	assert_int_equal(h_get(q, path, &r), 0);
	assert_null(strstr(r.body, "ist eingeladen"));
	h_resp_free(&r);

	/* a visitor sees the link, not the list, and is not told to send it
	 * to "deine Mitspieler" */
	assert_int_equal(h_get(visitor, path, &r), 0);
	assert_non_null(strstr(r.body, "Einladungslink:"));
	assert_null(strstr(r.body, "Eingeladen, noch nicht am Tisch"));
	assert_null(strstr(r.body, "an deine Mitspieler"));
	h_resp_free(&r);

	/* nobody who is not seated withdraws it; a wrong number changes nothing */
	char num[32];
	snprintf(num, sizeof num, "%lld", inv);
	assert_int_equal(it_post_table(sven, id, "/uninvite", "invite", num, NULL, 0), 409);
	/* (a browser is sent back to the table with the reason) */
	assert_int_equal(it_post_table(q, id, "/uninvite", "invite", "999999", NULL, 0), 303);
	assert_int_equal(h_get(q, path, &r), 0);
	assert_non_null(strstr(r.body, "Diese Einladung gibt es an diesem Tisch nicht (mehr)."));
	assert_non_null(strstr(r.body, "<a href=\"/u/Rosa\">Rosa</a>"));
	h_resp_free(&r);
	assert_int_equal(it_post_table(q, id, "/uninvite", "invite", "x", NULL, 0), 400);
	assert_int_equal(h_get(rosa, "/me", &r), 0);
	assert_non_null(strstr(r.body, "<a href=\"/u/Quirin\">Quirin</a> lädt dich ein"));
	/* her own waiting table and the invitation: no "0 von 1 Tischen" */
	assert_non_null(strstr(r.body, "Gerade wartet kein Tisch auf deinen Zug."));
	assert_null(strstr(r.body, "0 von 1"));
	h_resp_free(&r);

	assert_int_equal(it_post_table(q, id, "/uninvite", "invite", num, NULL, 0), 303);
	assert_int_equal(h_get(q, path, &r), 0);
	assert_non_null(strstr(r.body, "Die Einladung an Rosa ist zurückgezogen."));
	assert_null(strstr(r.body, "Eingeladen, noch nicht am Tisch"));
	h_resp_free(&r);
	assert_int_equal(h_get(rosa, "/me", &r), 0);
	assert_null(strstr(r.body, "lädt dich ein"));
	h_resp_free(&r);
	/* withdrawn twice: refused, nothing changes */
	h_client_accept(q, NULL);
	assert_int_equal(it_post_table(q, id, "/uninvite", "invite", num, NULL, 0), 409);
	h_client_free(visitor);
	h_client_free(q);
	h_client_free(rosa);
	h_client_free(sven);
}

static void test_invite_and_rematch(void **unused)
{
	(void)unused;
	struct h_client *p[2] = { it_register("Olga"), it_register("Paul") };
	assert_non_null(p[0]);
	assert_non_null(p[1]);
	int64_t id = it_create_table(p[0], "dna", 2, NULL);
	assert_true(id > 0);
	assert_int_equal(it_post_table(p[0], id, "/invite", "name", "paul", NULL, 0), 303);
	assert_int_equal(it_post_table(p[0], id, "/invite", "name", "Niemand", NULL, 0), 409);
	struct h_resp r;
	assert_int_equal(h_get(p[1], "/me", &r), 0);
	assert_non_null(strstr(r.body, "<a href=\"/u/Olga\">Olga</a> lädt dich ein"));
	h_resp_free(&r);
	assert_int_equal(it_join(p[1], id), 0);
	/* the match, played by both with their first legal moves */
	int posts = 0;
	long status;
	double t0 = it_now();
	for (;;) {
		json_t *o = it_table_json(p[0], id, &status);
		int over = strcmp(it_jstr(o, "status"), "finished") == 0;
		json_decref(o);
		if (over || posts >= MAX_POSTS || it_now() - t0 > MAX_SECONDS)
			break;
		if (someone_moves(p, 2, id))
			posts++;
		else
			nanosleep(&(struct timespec){ 0, 100 * 1000000L }, NULL);
	}
	json_t *o = it_table_json(p[1], id, &status);
	print_message("the first match: %d moves in %.1f s\n", posts, it_now() - t0);
	/* both are rated for it: their profiles say so; the board lists
	 * nobody yet (three rated matches first) */
	assert_int_equal(h_get(p[0], "/u/Olga", &r), 0);
	assert_non_null(strstr(r.body, "<h2>Wertung</h2>"));
	/* one match, in the singular; μ and σ with a decimal comma */
	assert_non_null(strstr(r.body, ", 1 Match)"));
	assert_null(strstr(r.body, "1 Matches"));
	const char *mu = strstr(r.body, "<small>(μ ");
	assert_non_null(mu);
	const char *sg = strstr(mu, ", σ ");
	assert_non_null(sg);
	assert_non_null(memchr(mu, ',', (size_t)(sg - mu)));
	assert_null(memchr(mu, '.', (size_t)(sg - mu)));
	assert_non_null(strstr(r.body, "Platz "));
	h_resp_free(&r);
	assert_int_equal(h_get(p[0], "/ratings?game=dna", &r), 0);
	assert_int_equal(r.status, 200);
	assert_non_null(strstr(r.body, "Noch niemand hat hier 3"));
	h_resp_free(&r);
	assert_int_equal(h_get(p[0], "/ratings?game=nogame", &r), 0);
	assert_int_equal(r.status, 404);
	h_resp_free(&r);
	assert_string_equal(it_jstr(o, "status"), "finished");
	assert_true(json_is_true(json_object_get(o, "can_rematch")));
	json_decref(o);
	assert_true(it_verify_exports(p[0], id) >= 1);   /* the match's exports replay */
	/* Paul asks for the next match; Olga's click finds the same table */
	char loc[128], loc2[128];
	assert_int_equal(it_post_table(p[1], id, "/rematch", NULL, NULL, loc, sizeof loc), 303);
	assert_int_equal(strncmp(loc, "/t/", 3), 0);
	int64_t next = strtoll(loc + 3, NULL, 10);
	assert_true(next > id);
	assert_int_equal(h_get(p[0], "/me", &r), 0);
	assert_non_null(strstr(r.body, "<a href=\"/u/Paul\">Paul</a> lädt dich ein"));
	h_resp_free(&r);
	o = it_table_json(p[0], id, &status);
	assert_int_equal(it_jint(o, "next_table_id", 0), next);
	json_decref(o);
	assert_int_equal(it_post_table(p[0], id, "/rematch", NULL, NULL, loc2, sizeof loc2), 303);
	assert_string_equal(loc, loc2);
	assert_int_equal(it_join(p[0], next), 0);
	o = it_table_json(p[0], next, &status);
	assert_string_equal(it_jstr(o, "status"), "playing");
	json_decref(o);
	print_message("invite and rematch: the first match took %d moves; the rematch, table %lld, "
		      "runs\n", posts, (long long)next);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_my_tables_poll_and_mark),
		cmocka_unit_test(test_lobby_host_and_watching),
		cmocka_unit_test(test_my_tables_seats_taken),
		cmocka_unit_test(test_invite_and_rematch),
		cmocka_unit_test(test_invitations_listed_and_withdrawn),
		cmocka_unit_test(test_my_tournaments),
	};
	return cmocka_run_group_tests(tests, it_start, it_stop);
}
