#!/usr/bin/env bash
# The peer `make bench` times the app's salvage against: a sqlite3 shell whose
# `.recover` works. Debian 12's own shell lists `.recover` but fails on every file
# (its library lacks SQLITE_ENABLE_DBPAGE_VTAB), so this builds one from Debian's own
# source package with that option, once, and caches it beside the preloads
# ($CHAOS_CACHE_DIR, else $XDG_CACHE_HOME/chaos, else ~/.cache/chaos). Prints the
# shell's path; exits non-zero, saying why on stderr, when it cannot be had. As root, on
# a machine with no deb-src entry, it adds one for bookworm main
# (/etc/apt/sources.list.d/chaos-deb-src.sources) and installs dpkg-dev if missing.
set -euo pipefail
cache="${CHAOS_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/chaos}"
shell="$cache/sqlite3-recover"
if [ -x "$shell" ]; then echo "$shell"; exit 0; fi
mkdir -p "$cache"
work="$(mktemp -d "$cache/sqlite3-build.XXXXXX")"
trap 'rm -rf "$work"' EXIT
if [ "$(id -u)" -eq 0 ] && ! grep -rqs '^Types: deb-src' /etc/apt/sources.list.d/ /etc/apt/sources.list; then
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\n' \
    > /etc/apt/sources.list.d/chaos-deb-src.sources
  apt-get update -qq >&2
fi
command -v dpkg-source >/dev/null || { [ "$(id -u)" -eq 0 ] && apt-get install -y -qq dpkg-dev >&2; }
cd "$work"
apt-get source --download-only sqlite3 >&2
tar xf sqlite3_*.orig.tar.*
source_dir="$(find . -maxdepth 1 -type d -name 'sqlite*' | head -1)"
mkdir build && cd build
"../$source_dir/configure" --disable-tcl CFLAGS="-O2 -DSQLITE_ENABLE_DBPAGE_VTAB" >/dev/null
make sqlite3 >/dev/null 2>&1
# Proof it recovers: the page table answers on an empty database.
./sqlite3 :memory: 'SELECT count(*) FROM sqlite_dbpage' >/dev/null
cp sqlite3 "$shell.tmp.$$" && mv "$shell.tmp.$$" "$shell"
echo "$shell"
