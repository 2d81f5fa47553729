#!/bin/sh
# machine.sh DUR CONN THREADS WORKERS LOAD — the machine, the versions and the
# command of a benchmark run, as Markdown.
set -eu
cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
mem=$(awk '/^MemTotal:/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null || true)
ver() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "?"; }
commit=$(git rev-parse --short HEAD 2>/dev/null || echo "?")
dirty=""
[ -n "$(git status --porcelain 2>/dev/null | grep -v '^??' || true)" ] && dirty=" (with uncommitted changes)"

echo "Run $(date -u '+%Y-%m-%d %H:%M UTC') at commit $commit$dirty."
echo
echo "- machine: $(nproc) cores (${cpu:-unknown CPU}), $mem memory, $(uname -sr)"
echo "- load average (1, 5, 15 min) before the run: ${5:-?}; after: $(cut -d' ' -f1-3 /proc/loadavg)" \
	"(other work on the machine makes every rate lower and p99 longer; the instruction counts do not move)"
echo "- nginx $(nginx -v 2>&1 | sed 's/^nginx version: nginx\///'), SQLite $(sqlite3 --version | awk '{ print $1 }')," \
	"$(gcc --version | head -n 1), libfcgi $(ver libfcgi0ldbl), wrk $(ver wrk)"
echo "- command: \`make bench\` (= \`sh tests/bench/bench.sh\`): wrk -t$3 -c$2 -d${1}s --latency -s tests/bench/wrk.lua," \
	"$4 FastCGI workers, nginx from deploy/nginx.conf.in"
