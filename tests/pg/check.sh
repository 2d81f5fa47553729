#!/bin/sh
# check.sh BIN... — runs the given unit test binaries on PostgreSQL (make
# pg-check; docs/storage.md, "The PostgreSQL backend"): starts a throw-away
# cluster (cluster.sh) in a temporary directory, runs the binaries with
# SPIELTISCH_TEST_DB set to its URI (each test makes a database of its own,
# tests/unit/tmpdb.h) through run-each.sh, and stops the cluster whatever
# happened. Fails if any binary fails.
cd "$(dirname "$0")/../.." || exit 1
dir=$(mktemp -d "${TMPDIR:-/tmp}/spieltisch-pg.XXXXXX") || exit 1
trap 'sh tests/pg/cluster.sh stop "$dir"; rm -rf "$dir"' EXIT
uri=$(sh tests/pg/cluster.sh start "$dir") || exit 1
echo "pg-check: a cluster at $uri"
SPIELTISCH_TEST_DB=$uri sh tests/run-each.sh "$@"
