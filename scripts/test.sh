#!/usr/bin/env bash
# Installs what is missing (with the peers, lab and fuzzing tools), builds, and runs the whole
# test suite (unit, integration, and fuzz: a few seconds of each fuzzer), tests side by side on
# every core. Then builds the unit tests again with AddressSanitizer + UndefinedBehaviorSanitizer
# in build-asan/ and runs them under it: only what they link (the core library, not cli/),
# unoptimised and with line tables only (-g1), the cheapest build whose sanitizer reports still
# name file and line. ccache, when installed, serves the sources that did not change.
# docs/testing.md describes each part and what each costs.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
step() { echo "test.sh: $1 ($(date +%T))"; }

step deps
bash "$src/scripts/deps.sh" test
step build
bash "$src/scripts/build.sh" "${launcher[@]}"
# Why each skipped test skipped (ctest lists only their names), from gtest's "Skipped" lines.
skip_reasons() {
  awk '/: Skipped$/ { grab = 1; msg = ""; next }
       grab && /^\[  SKIPPED \]/ { print "  " $4 ": " msg; grab = 0; next }
       grab { msg = msg (msg == "" ? "" : " ") $0 }' Testing/Temporary/LastTest.log | sort -u
}

step ctest
cd "$src/build"
rc=0
ctest --output-on-failure -j"$jobs" "$@" || rc=$?
if grep -q ': Skipped$' Testing/Temporary/LastTest.log; then
  echo "test.sh: why tests skipped:"
  skip_reasons
fi
[ "$rc" -eq 0 ] || exit "$rc"

step "sanitizer build"
cmake -S "$src" -B "$src/build-asan" -DCMAKE_BUILD_TYPE=Debug -DDURPROBE_SANITIZE=ON \
  -DCMAKE_C_FLAGS_DEBUG=-g1 -DCMAKE_CXX_FLAGS_DEBUG=-g1 "${launcher[@]}" >/dev/null
cmake --build "$src/build-asan" -j"$jobs" --target durprobe_unit_tests
step "sanitizer ctest"
cd "$src/build-asan"
ctest --output-on-failure -j"$jobs" -L unit
step done
