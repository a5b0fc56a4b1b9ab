#!/usr/bin/env bash
# Installs what is missing (with the peers, lab and fuzzing tools), builds, and runs the whole
# test suite: unit and integration tests side by side on every core; beside them, at the lowest
# CPU priority, the sanitizer build (scripts/build-san.sh: the unit tests and the libFuzzer
# targets, one clang-14 compile with AddressSanitizer + UndefinedBehaviorSanitizer in
# build-san/), then the unit tests again under the sanitizers and a few seconds of each fuzzer
# (scripts/sanitized.sh). Also beside the tests: the static binary's smoke set in an empty root
# and a Debian 13 root (scripts/smoke-static.sh), and the Debian package installed in a fresh
# Debian 12 root (scripts/build-deb.sh --check). ccache, when installed, serves the sources that
# did not change.
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
[ -x "$src/build/tests/durprobe_unit_tests" ] ||
  { echo "test.sh: the tests were not built (cmake said why, GoogleTest missing?)" >&2; exit 1; }

# The sanitizer build mostly waits for nothing but CPU, the tests mostly for the disk: niced, it
# takes the cycles the tests leave, and so do its unit tests and the fuzzers after it
# (scripts/sanitized.sh), once the quiet-disk tests are done (they make quiet_done: the
# quiet_disk fixture's cleanup, tests/CMakeLists.txt). In a process group of its own, so an early
# exit stops it all.
quiet_done="$src/build/quiet-disk-done"
rm -f "$quiet_done"
step "sanitizer build, its unit tests and the fuzzers, in the background (build/build-san.log," \
  "build/san-unit.log, build/fuzz.log)"
setsid nice -n 19 bash "$src/scripts/sanitized.sh" --jobs "$jobs" --after "$quiet_done" &
san_pid=$!
trap 'kill -- -"$san_pid" 2>/dev/null || true' EXIT

# The static binary's smoke set and the package's install, each in roots of its own (root only:
# unshare and chroot); they wait mostly for the disk and the network, the tests for the disk.
# They start once the quiet-disk tests are done: dpkg syncs every file it unpacks, and a FUSE
# server's syncs are counted on every local disk.
roots=()
after_quiet() { while [ ! -e "$quiet_done" ]; do sleep 1; done; }
if [ "$(id -u)" = 0 ]; then
  step "static binary smoke and Debian package, in the background once the quiet-disk tests" \
    "are done (build/smoke-static.log, build/deb-check.log)"
  (after_quiet; t=$SECONDS; bash "$src/scripts/smoke-static.sh" && rc=0 || rc=$?
   echo "smoke-static.sh: $((SECONDS - t)) s"; exit "$rc") >"$src/build/smoke-static.log" 2>&1 &
  roots+=("$!:smoke-static")
  (after_quiet; t=$SECONDS; bash "$src/scripts/build-deb.sh" --check --no-build && rc=0 || rc=$?
   echo "build-deb.sh: $((SECONDS - t)) s"; exit "$rc") >"$src/build/deb-check.log" 2>&1 &
  roots+=("$!:deb-check")
else
  echo "test.sh: not root: the static binary's smoke and the package's install are skipped" \
    "(unshare and chroot need root)"
fi

# Why each skipped test skipped (ctest lists only their names), from gtest's "Skipped" lines.
skip_reasons() {
  awk '/: Skipped$/ { grab = 1; msg = ""; next }
       grab && /^\[  SKIPPED \]/ { print "  " $4 ": " msg; grab = 0; next }
       grab { msg = msg (msg == "" ? "" : " ") $0 }' Testing/Temporary/LastTest.log | sort -u
}
# ctest with its arguments, then the skip reasons; returns ctest's status.
run_ctest() {
  local rc=0
  ctest --output-on-failure "$@" || rc=$?
  if grep -q ': Skipped$' Testing/Temporary/LastTest.log; then
    echo "test.sh: why tests skipped:"
    skip_reasons
  fi
  return "$rc"
}

step "ctest: unit and integration"
cd "$src/build"
rc=0
run_ctest -j"$jobs" -LE fuzz "$@" || rc=$?
touch "$quiet_done"  # when the arguments left the quiet-disk tests out, nothing else made it
[ "$rc" -eq 0 ] || exit "$rc"

roots_rc=0
for r in "${roots[@]}"; do
  step "${r#*:}: waiting for it"
  rc=0
  wait "${r%%:*}" || rc=$?
  cat "$src/build/${r#*:}.log"
  [ "$rc" -eq 0 ] || roots_rc=$rc
done
step "sanitizer build, unit tests and fuzzers: waiting for them"
san_rc=0
wait "$san_pid" || san_rc=$?
trap - EXIT
if [ "$san_rc" -eq 90 ]; then
  echo "test.sh: the sanitizer build failed; the end of build/build-san.log:"
  tail -n 60 "$src/build/build-san.log"
  exit "$san_rc"
fi
grep '^build-san.sh:' "$src/build/build-san.log" || true
echo "test.sh: the unit tests under the sanitizers, $jobs shards (build/san-unit.log):"
cat "$src/build/san-unit.log"
[ "$san_rc" -ne 91 ] || exit "$san_rc"
echo "test.sh: each fuzzer for 5 s (build/fuzz.log):"
cat "$src/build/fuzz.log"
[ "$san_rc" -eq 0 ] || exit "$san_rc"
if [ "$roots_rc" -ne 0 ]; then
  echo "test.sh: the static binary's smoke or the package's install failed (above)"
  exit "$roots_rc"
fi
step done
