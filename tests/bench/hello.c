/*
 * hello.c — the benchmark's upper limit: the smallest FastCGI responder that
 * libfcgi allows, run the way `spieltisch serve` runs (one unix socket,
 * pre-forked workers, one FCGX_Accept_r loop each, one write per response).
 * Whatever the real program does on top of this is what the ratios measure.
 *
 *   hello --socket PATH [--workers N]
 *
 * The parent waits for its workers; SIGTERM or SIGINT to the parent ends
 * them all. Exit 0 on a clean stop, 1 on a setup failure, 2 on bad usage.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcgiapp.h>

enum { HELLO_MAX_WORKERS = 64, HELLO_BACKLOG = 256, HELLO_ACCEPT_RETRIES = 100 };

static const char reply[] =
	"Status: 200 OK\r\n"
	"Content-Type: text/html; charset=utf-8\r\n"
	"\r\n"
	"<!doctype html><html lang=\"de\"><title>Hallo</title><p>Hallo, Welt.</p></html>\n";

static volatile sig_atomic_t stopping;

static void on_stop(int sig)
{
	(void)sig;
	stopping = 1;
}

/* One worker: answers requests until it is killed. A failed accept (a
 * signal, as under valgrind's control) is retried, but not forever. */
static void worker(int fd)
{
	FCGX_Request req;
	int failures = 0;
	if (FCGX_InitRequest(&req, fd, 0) != 0)
		_exit(1);
	while (failures < HELLO_ACCEPT_RETRIES) {
		if (FCGX_Accept_r(&req) < 0) {
			failures++;
			continue;
		}
		failures = 0;
		FCGX_PutStr(reply, (int)(sizeof reply - 1), req.out);
		FCGX_Finish_r(&req);
	}
	_exit(0);
}

static int parse_count(const char *s, long min, long max, long *out)
{
	char *end;
	if (!s || !*s)
		return -1;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end != '\0' || v < min || v > max)
		return -1;
	*out = (long)v;
	return 0;
}

int main(int argc, char **argv)
{
	const char *path = NULL;
	long nworkers = 2;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--socket") == 0 && i + 1 < argc) {
			path = argv[++i];
		} else if (strcmp(argv[i], "--workers") == 0 && i + 1 < argc &&
			   parse_count(argv[i + 1], 1, HELLO_MAX_WORKERS, &nworkers) == 0) {
			i++;
		} else {
			fprintf(stderr, "usage: hello --socket PATH [--workers N]\n");
			return 2;
		}
	}
	if (!path) {
		fprintf(stderr, "usage: hello --socket PATH [--workers N]\n");
		return 2;
	}
	if (FCGX_Init() != 0) {
		fprintf(stderr, "hello: FCGX_Init failed\n");
		return 1;
	}
	unlink(path);
	int fd = FCGX_OpenSocket(path, HELLO_BACKLOG);
	if (fd < 0) {
		fprintf(stderr, "hello: cannot listen on %s\n", path);
		return 1;
	}
	/* nginx workers may run as another user. */
	chmod(path, 0666);

	pid_t pids[HELLO_MAX_WORKERS];
	for (long i = 0; i < nworkers; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			fprintf(stderr, "hello: fork: %s\n", strerror(errno));
			nworkers = i;
			break;
		}
		if (pid == 0)
			worker(fd);
		pids[i] = pid;
	}

	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	long alive = nworkers;
	while (alive > 0 && !stopping) {
		if (wait(NULL) > 0)
			alive--;
		else if (errno != EINTR)
			break;
	}
	for (long i = 0; i < nworkers; i++)
		kill(pids[i], SIGTERM);
	for (long i = 0; i < nworkers; i++)
		waitpid(pids[i], NULL, 0);
	unlink(path);
	return 0;
}
