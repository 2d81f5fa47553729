/*
 * sandbox.h — a seccomp filter (libseccomp) a FastCGI worker installs once
 * its start-up is done (templates loaded, database open, socket inherited).
 *
 * It is a deny list: the calls a request never needs and an attacker who
 * got code running in a worker would want — running programs, new
 * processes, new sockets (outgoing connections, listeners), debugging other
 * processes, changing identity, mounting, namespaces, kernel modules, BPF —
 * fail with EPERM from then on. Everything else stays allowed, so a rare
 * path of SQLite or libsodium cannot break under it.
 *
 * The switch: SPIELTISCH_SANDBOX=off in the environment of `spieltisch
 * serve` leaves the workers unconfined (for a kernel without seccomp, or
 * for debugging with tools that trace the worker). In a build with
 * AddressSanitizer the filter lets clone and ptrace through: LeakSanitizer
 * needs them at exit.
 */
#ifndef SPIELTISCH_SANDBOX_H
#define SPIELTISCH_SANDBOX_H

/* 0 when SPIELTISCH_SANDBOX is "off" (or "0"), else 1. */
int sandbox_wanted(void);

/* Installs the filter in the calling process and all it may start (with
 * no_new_privs). 0, or -1 after logging why (the caller should then refuse
 * to serve rather than run unconfined). */
int sandbox_enter(void);
/* The same for the publisher (cgi/live.h), which connects to nginx's unix
 * socket: socket and connect stay allowed, the rest is denied as above. */
int sandbox_enter_client(void);

#endif
