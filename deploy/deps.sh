#!/bin/sh
# deps.sh — installs the Debian packages Spieltisch needs that are missing.
# Usage: deps.sh GROUP...   groups: build run test bench
# Prints nothing when everything is there already.
set -eu

pkgs_build="gcc g++ make pkg-config libfcgi-dev libsqlite3-dev libpq-dev libctemplate-dev libsodium-dev libjansson-dev libhyphen-dev libseccomp-dev libicu-dev libunistring-dev hyphen-de wngerman gettext"
pkgs_run="nginx-light libnginx-mod-nchan sqlite3 libpq5"
pkgs_test="libcmocka-dev postgresql redis-server libcurl4-openssl-dev curl clang libclang-rt-14-dev chromium chromium-driver nodejs npm python3-feedparser"
pkgs_bench="wrk valgrind curl"

want=""
for g in "$@"; do
	eval "want=\"\$want \$pkgs_$g\""
done

missing=""
for p in $want; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		# A command already on the machine is enough: nginx and nginx-light
		# both provide the server; some Node.js builds bring npm along.
		case "$p" in
		nginx-light) command -v nginx >/dev/null 2>&1 && continue ;;
		nodejs) command -v node >/dev/null 2>&1 && continue ;;
		npm) command -v npm >/dev/null 2>&1 && continue ;;
		esac
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

echo "Installing missing Debian packages:$missing"
SUDO=""
if [ "$(id -u)" != 0 ]; then
	command -v sudo >/dev/null 2>&1 || { echo "deps.sh: need root or sudo to install:$missing" >&2; exit 1; }
	SUDO=sudo
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
