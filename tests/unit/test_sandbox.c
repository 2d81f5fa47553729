/* test_sandbox.c — the worker's seccomp filter: after sandbox_enter() the
 * denied calls fail with EPERM (no program runs, no socket opens, no new
 * process starts) while what a request needs — files, memory, time,
 * randomness — still works. Each case runs in a child process, so the
 * filter never reaches the test runner itself. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "sandbox.h"

/* Under AddressSanitizer the filter lets clone through (LeakSanitizer
 * needs it), so fork is only expected to fail in a plain build. */
#if defined(__SANITIZE_ADDRESS__)
#define TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TEST_ASAN 1
#endif
#endif

/* Runs fn in a child behind the filter; the child's exit status (0: every
 * expectation held, else the number of the one that failed). */
static int in_filter(int (*enter)(void), int (*fn)(void))
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		if (enter() != 0)
			_exit(100);
		_exit(fn());
	}
	assert_true(pid > 0);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static int in_sandbox(int (*fn)(void))
{
	return in_filter(sandbox_enter, fn);
}

/* What an attacker would try first: every one must fail with EPERM. */
static int denied_calls(void)
{
	char *const argv[] = { "/bin/sh", "-c", "exit 0", NULL };
	char *const envp[] = { NULL };
	errno = 0;
	if (execve("/bin/sh", argv, envp) != -1 || errno != EPERM)
		return 1;
	errno = 0;
	if (socket(AF_INET, SOCK_STREAM, 0) != -1 || errno != EPERM)
		return 2;
	errno = 0;
	if (socket(AF_UNIX, SOCK_STREAM, 0) != -1 || errno != EPERM)
		return 3;
#ifndef TEST_ASAN
	errno = 0;
	pid_t p = fork();
	if (p == 0)
		_exit(0);
	if (p != -1 || errno != EPERM)
		return 4;
#endif
	errno = 0;
	if (setuid(0) != -1 || errno != EPERM)
		return 5;
	errno = 0;
	if (chroot("/") != -1 || errno != EPERM)
		return 6;
	return 0;
}

/* What a request needs: files (SQLite), memory, time, randomness, sleep. */
static int allowed_calls(void)
{
	char path[] = "/tmp/spieltisch-sandbox-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 1;
	if (write(fd, "abc", 3) != 3 || fsync(fd) != 0 || ftruncate(fd, 1) != 0)
		return 2;
	struct stat sb;
	if (fstat(fd, &sb) != 0 || sb.st_size != 1)
		return 3;
	close(fd);
	if (unlink(path) != 0)
		return 4;
	void *big = malloc(64u << 20);
	if (!big)
		return 5;
	memset(big, 1, 64u << 20);
	free(big);
	struct timespec ts = { 0, 1000000 };
	if (nanosleep(&ts, NULL) != 0 || clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return 6;
	unsigned char r[32];
	if (sodium_init() < 0)
		return 7;
	randombytes_buf(r, sizeof r);
	return 0;
}

static void test_denied(void **unused)
{
	(void)unused;
	assert_int_equal(in_sandbox(denied_calls), 0);
}

static void test_allowed(void **unused)
{
	(void)unused;
	assert_int_equal(in_sandbox(allowed_calls), 0);
}

/* The publisher's filter (cgi/live.c): a unix socket may be made and
 * connected, nothing else of the worker's list is let through. */
static int client_calls(void)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		return 1;
	struct sockaddr_un sa = { .sun_family = AF_UNIX, .sun_path = "/nonexistent/live.sock" };
	errno = 0;
	if (connect(fd, (struct sockaddr *)&sa, sizeof sa) != -1 || errno == EPERM)
		return 2;   /* refused by the kernel (no such file), not by the filter */
	close(fd);
	char *argv[] = { "/bin/sh", "-c", "true", NULL };
	char *envp[] = { NULL };
	errno = 0;
	if (execve("/bin/sh", argv, envp) != -1 || errno != EPERM)
		return 3;
	errno = 0;
	if (setuid(0) != -1 || errno != EPERM)
		return 4;
	errno = 0;
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != -1 || errno != EPERM)
		return 5;
	return 0;
}

static void test_client(void **unused)
{
	(void)unused;
	assert_int_equal(in_filter(sandbox_enter_client, client_calls), 0);
}

static void test_switch(void **unused)
{
	(void)unused;
	unsetenv("SPIELTISCH_SANDBOX");
	assert_int_equal(sandbox_wanted(), 1);
	setenv("SPIELTISCH_SANDBOX", "off", 1);
	assert_int_equal(sandbox_wanted(), 0);
	setenv("SPIELTISCH_SANDBOX", "0", 1);
	assert_int_equal(sandbox_wanted(), 0);
	setenv("SPIELTISCH_SANDBOX", "on", 1);
	assert_int_equal(sandbox_wanted(), 1);
	unsetenv("SPIELTISCH_SANDBOX");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_denied),
		cmocka_unit_test(test_allowed),
		cmocka_unit_test(test_client),
		cmocka_unit_test(test_switch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
