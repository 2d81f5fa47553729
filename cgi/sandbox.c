/* sandbox.c — the worker's seccomp deny list; see sandbox.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <seccomp.h>

#include "sandbox.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANDBOX_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANDBOX_ASAN 1
#endif
#endif

/* The calls that fail with EPERM inside a worker. Names this architecture
 * does not have are skipped. */
static const char *const denied[] = {
	/* running programs, new processes */
	"execve", "execveat", "fork", "vfork",
#ifndef SANDBOX_ASAN
	"clone", "clone3", "ptrace",
#endif
	/* the network: the worker only accepts on the socket it inherited */
	"socket", "socketpair", "connect", "bind", "listen",
	/* other processes' memory */
	"process_vm_readv", "process_vm_writev", "kcmp", "pidfd_open", "pidfd_getfd",
	/* identity */
	"setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setgroups",
	"setfsuid", "setfsgid", "capset",
	/* the file system tree and the machine */
	"mount", "umount2", "pivot_root", "chroot", "mknod", "mknodat", "swapon", "swapoff",
	"reboot", "kexec_load", "kexec_file_load", "init_module", "finit_module",
	"delete_module", "acct", "quotactl", "sethostname", "setdomainname", "settimeofday",
	"clock_settime", "adjtimex", "clock_adjtime", "syslog", "iopl", "ioperm",
	/* namespaces, tracing, kernel interfaces attackers like */
	"unshare", "setns", "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key",
	"request_key", "personality", "name_to_handle_at", "open_by_handle_at",
	"fanotify_init", "lookup_dcookie", "io_uring_setup",
};

int sandbox_wanted(void)
{
	const char *v = getenv("SPIELTISCH_SANDBOX");
	return !(v && (strcmp(v, "off") == 0 || strcmp(v, "0") == 0));
}

/* The filter, but for the calls named in allow (NULL-terminated, may be NULL). */
static int enter(const char *const *allow)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int rc = -1;
	if (!ctx) {
		fprintf(stderr, "sandbox: seccomp_init failed\n");
		return -1;
	}
	for (size_t i = 0; i < sizeof denied / sizeof denied[0]; i++) {
		int skip = 0;
		for (const char *const *a = allow; a && *a; a++)
			skip |= strcmp(*a, denied[i]) == 0;
		if (skip)
			continue;
		int nr = seccomp_syscall_resolve_name(denied[i]);
		if (nr == __NR_SCMP_ERROR)
			continue;
		int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
		if (r != 0) {
			fprintf(stderr, "sandbox: cannot deny %s: %s\n", denied[i], strerror(-r));
			goto out;
		}
	}
	int r = seccomp_load(ctx);
	if (r != 0) {
		fprintf(stderr, "sandbox: the kernel refused the filter (%s); "
			"SPIELTISCH_SANDBOX=off runs without it\n", strerror(-r));
		goto out;
	}
	rc = 0;
out:
	seccomp_release(ctx);
	return rc;
}

int sandbox_enter(void)
{
	return enter(NULL);
}

int sandbox_enter_client(void)
{
	static const char *const allow[] = { "socket", "connect", NULL };
	return enter(allow);
}
