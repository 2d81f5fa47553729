#!/bin/sh
# cluster.sh — a throw-away PostgreSQL cluster for the tests (docs/storage.md,
# "PostgreSQL").
#
#   sh tests/pg/cluster.sh start DIR   initdb in DIR/data, start the server on
#                                      a unix socket in DIR (no TCP), create
#                                      the database spieltisch, print its URI
#   sh tests/pg/cluster.sh stop DIR    stop the server, remove DIR/data
#
# initdb refuses root: run as root, the cluster belongs to an unprivileged
# user (PG_USER, default nobody) and DIR is handed to them. fsync and
# synchronous commit are off: the data is thrown away. Every wait is
# bounded (pg_ctl -w -t); nothing sleeps a fixed time.
set -eu

PG_USER=${PG_USER:-nobody}
PG_WAIT=${PG_WAIT:-60}   # seconds pg_ctl waits for the server at most

die() { echo "cluster.sh: $*" >&2; exit 1; }

# The server's programs: PG_BIN, else the newest of Debian's versions, else $PATH.
pg_bin() {
	if [ -n "${PG_BIN:-}" ]; then echo "$PG_BIN"; return; fi
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n -r); do
		[ -x "$d/initdb" ] && { echo "$d"; return; }
	done
	d=$(command -v initdb 2>/dev/null) || die "no initdb: install postgresql (deploy/deps.sh test)"
	dirname "$d"
}

# Runs a command as the cluster's owner (as ourselves when not root).
as_owner() {
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid="$PG_USER" --regid="$(id -g "$PG_USER")" --clear-groups \
			env HOME="$DIR" "$@"
	else
		"$@"
	fi
}

start() {
	BIN=$(pg_bin)
	mkdir -p "$DIR"
	[ "$(id -u)" -ne 0 ] || chown "$PG_USER" "$DIR"
	[ ! -e "$DIR/data" ] || die "$DIR/data exists: stop it first"
	as_owner "$BIN/initdb" -D "$DIR/data" -U spieltisch --auth=trust -E UTF8 \
		--locale=C.UTF-8 --no-sync > "$DIR/initdb.log" 2>&1 ||
		{ cat "$DIR/initdb.log" >&2; die "initdb failed"; }
	cat >> "$DIR/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$DIR'
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = 32MB
max_connections = 100
CONF
	as_owner "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t "$PG_WAIT" start \
		> /dev/null || { cat "$DIR/server.log" >&2; die "the server did not start"; }
	as_owner "$BIN/createdb" -h "$DIR" -U spieltisch spieltisch ||
		die "createdb failed"
	echo "postgresql:///spieltisch?host=$DIR&user=spieltisch"
}

stop() {
	[ -d "$DIR/data" ] || return 0
	BIN=$(pg_bin)
	as_owner "$BIN/pg_ctl" -D "$DIR/data" -m immediate -w -t "$PG_WAIT" stop > /dev/null 2>&1 ||
		true
	rm -rf "$DIR/data"
}

[ $# -eq 2 ] || die "usage: cluster.sh start|stop DIR"
case $2 in /*) DIR=$2 ;; *) DIR=$(pwd)/$2 ;; esac
case $1 in
start) start ;;
stop) stop ;;
*) die "usage: cluster.sh start|stop DIR" ;;
esac
