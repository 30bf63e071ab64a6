#!/usr/bin/env bash
# Prerequisites of the DBGp backend's tests (native/dbgp/tests, tests/e2e/test_php_xdebug.py):
# php-cli and Xdebug 3 (Debian's php-cli, php-xdebug), curl for web-request triggers, and
# util-linux's unshare for the "code under another root" test (a user+mount namespace).
# Idempotent: installs only what is missing; fails with a how-to message otherwise.
set -uo pipefail
SUDO=${SUDO:-}
[ -z "$SUDO" ] && [ "$(id -u)" != 0 ] && command -v sudo >/dev/null && SUDO="sudo"

fail() { echo "php setup: $*" >&2; exit 2; }

pkgs=()
command -v php >/dev/null || pkgs+=(php-cli)
php -r 'exit(phpversion("xdebug") ? 0 : 1);' 2>/dev/null || pkgs+=(php-xdebug)
command -v curl >/dev/null || pkgs+=(curl)
command -v unshare >/dev/null || pkgs+=(util-linux)
if [ ${#pkgs[@]} -gt 0 ]; then
  echo "php setup: installing ${pkgs[*]}"
  { $SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${pkgs[@]}"; } \
    || fail "cannot install ${pkgs[*]}; run: apt-get install php-cli php-xdebug curl util-linux"
fi
v=$(php -r 'echo phpversion("xdebug") ?: "none";' 2>/dev/null)
case "$v" in
  3.*) ;;
  *) fail "php loads Xdebug '$v', the tests need Xdebug 3 (apt-get install php-xdebug, or pecl install xdebug)";;
esac
