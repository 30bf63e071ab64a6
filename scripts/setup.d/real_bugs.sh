#!/usr/bin/env bash
# The libraries of the real-bugs benchmark (tests/bench/real_bugs: more-itertools 9.0.0 from
# PyPI, cJSON 1.7.15 and tinyxml2 9.0.0 from Debian's source packages), downloaded into the
# gitignored tests/bench/real_bugs/.cache and checked against their pinned sha256. The e2e smoke
# test (tests/e2e/test_real_bugs_smoke.py) and bench.py use them. Idempotent: a cached archive
# whose hash matches is not downloaded again.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 tests/bench/real_bugs/sources.py fetch || {
  echo "real-bugs setup: could not fetch the benchmark's libraries (see above); needs pip and apt-get" >&2; exit 2; }
