#!/usr/bin/env bash
# The sanitizer half of the suite, as scripts/test.sh runs it beside the other tests: the
# sanitizer build (scripts/build-san.sh), then the unit tests under AddressSanitizer and
# UndefinedBehaviorSanitizer, then a few seconds of each fuzzer (scripts/fuzz.sh).
# The unit tests run the binary itself in one shard per core (gtest's sharding), not a process
# per test as ctest runs them: an instrumented process takes a tenth of a second to start, which
# was most of the 49 s this step took with ctest. Some unit tests sync real files, so with
# --after FILE they wait until FILE exists: test.sh's quiet-disk tests (tests/CMakeLists.txt)
# have it made when they are done, and no other test's flushes may land beside them.
# Usage: scripts/sanitized.sh [--jobs N] [--after FILE]
# Logs: build/build-san.log, build/san-unit.log, build/fuzz.log (a failing shard's log whole,
# with the sanitizer's report). Exit: 0 passed (fuzzers skipped, 77, count as passed: the build
# said why), 90 the build failed, 91 a unit test failed, 92 a fuzzer failed.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
after=
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs=$2; shift 2 ;;
    --after) after=$2; shift 2 ;;
    *) echo "sanitized.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
logs="$src/build"
mkdir -p "$logs"

bash "$src/scripts/build-san.sh" >"$logs/build-san.log" 2>&1 || exit 90
if [ -n "$after" ]; then
  while [ ! -e "$after" ]; do sleep 1; done
fi

cd "$src/build-san" || exit 90
status=0
for ((i = 0; i < jobs; i++)); do
  GTEST_TOTAL_SHARDS=$jobs GTEST_SHARD_INDEX=$i tests/durprobe_unit_tests --gtest_brief=1 \
    >"san-unit-$i.log" 2>&1 &
done
for ((i = 0; i < jobs; i++)); do
  wait -n || status=$?
done
{
  for ((i = 0; i < jobs; i++)); do
    grep -E '^\[  (PASSED|FAILED|SKIPPED) +\]' "san-unit-$i.log" | sed "s/^/shard $i: /" || true
  done
  if [ "$status" -ne 0 ]; then
    for ((i = 0; i < jobs; i++)); do
      if ! grep -q '^\[  PASSED  \]' "san-unit-$i.log" ||
        grep -q '^\[  FAILED  \]' "san-unit-$i.log"; then
        echo "sanitized.sh: sanitizer shard $i failed:"
        cat "san-unit-$i.log"
      fi
    done
  fi
} >"$logs/san-unit.log"
[ "$status" -eq 0 ] || exit 91

fuzz=0
bash "$src/scripts/fuzz.sh" --seconds 5 >"$logs/fuzz.log" 2>&1 || fuzz=$?
[ "$fuzz" -eq 0 ] || [ "$fuzz" -eq 77 ] || exit 92
exit 0
