#!/usr/bin/env bash
# Fails unless the ELF shared library $1 needs no glibc symbol version newer than $2 (default 2.17).
#
# Why: IntelliJ runs on older Linux distributions than the build machine's; a library linked
# against a newer glibc fails to load there ("version `GLIBC_2.34' not found"). 2.17 is the floor
# of Rust's *-linux-gnu targets, so a library that passes loads on every glibc Rust supports.
# The plugin workflow builds the Linux libraries with cargo-zigbuild for <target>.2.17 and runs
# this on them; scripts/test.d/kotlin.sh runs it on a library built here the same way.
set -euo pipefail
lib="${1:?usage: check-glibc.sh <library.so> [max glibc version, default 2.17]}"
max="${2:-2.17}"
[ -f "$lib" ] || { echo "check-glibc: no such file: $lib" >&2; exit 2; }
command -v objdump >/dev/null || { echo "check-glibc: objdump missing (Debian package binutils)" >&2; exit 2; }
# Dynamic symbol table: imported symbols carry their version, e.g. "(GLIBC_2.34) __libc_start_main".
versions=$(objdump -T "$lib" | grep -oE 'GLIBC_[0-9]+(\.[0-9]+)+' | sed 's/GLIBC_//' | sort -u -V)
[ -n "$versions" ] || { echo "check-glibc: $lib references no GLIBC symbol versions (not a glibc-linked ELF library?)" >&2; exit 1; }
newest=$(printf '%s\n' $versions | sort -V | tail -1)
too_new=$(printf '%s\n' $versions | awk -v max="$max" 'BEGIN{split(max,m,".")} {split($0,v,"."); if (v[1]>m[1] || (v[1]==m[1] && v[2]+0>m[2]+0)) print}')
if [ -n "$too_new" ]; then
  echo "check-glibc: $lib needs glibc $newest, newer than $max. Symbols:" >&2
  for v in $too_new; do objdump -T "$lib" | grep -F "(GLIBC_$v)" | awk -v v="$v" '{print "  " $NF " (GLIBC_" v ")"}' >&2; done
  exit 1
fi
echo "check-glibc: ok: $lib needs glibc <= $newest (limit $max)"
