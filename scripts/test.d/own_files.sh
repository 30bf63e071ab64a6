#!/usr/bin/env bash
# Only our own files are tracked (issue 30): no license file outside the root, no foreign
# copyright header or license text, no marker of copied or vendor-supplied material, no tracked binary.
# The self-test plants one file of each kind in a scratch repository first.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 tests/repo-check/check_own_files.py --self-test
python3 tests/repo-check/check_own_files.py
# ./gradlew is ours (Gradle's wrapper is not tracked): it fetches, verifies and runs Gradle.
python3 tests/repo-check/test_gradlew.py
