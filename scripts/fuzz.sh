#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/) in the sanitizer build, build-san/
# (scripts/build-san.sh: clang-14), and runs each for a while, seeded from tests/fixtures. A crash,
# leak, sanitizer report or timeout fails the run and leaves the input in build-san/artifacts/
# (replay: build-san/tests/fuzz/fuzz_NAME INPUT).
# Usage: scripts/fuzz.sh [--seconds N] [--jobs N] [TARGET...]   (default: 5 s each, every target)
#   targets: report_json policy mountinfo units witness_protocol
# Exits 77 (ctest's "skipped") when clang-14 or libFuzzer is missing, saying which.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
seconds=5
jobs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    *) break ;;
  esac
done
all=(report_json policy mountinfo units witness_protocol)
targets=("${@:-${all[@]}}")

# Seeds per target, read-only: the fixtures, plus every earlier crash kept as a regression input.
seeds_of() {
  case "$1" in
    report_json) echo "$src/tests/fixtures/diff $src/tests/fixtures/fuzz/report_json" ;;
    mountinfo) echo "$src/tests/fixtures/mountinfo $src/tests/fixtures/fuzz/mountinfo" ;;
    units) echo "$src/tests/fixtures/fuzz/units" ;;
    policy) echo "$src/tests/fixtures/fuzz/policy" ;;
    witness_protocol) echo "$src/tests/fixtures/fuzz/witness_protocol" ;;
    *) echo "fuzz.sh: unknown target '$1' (targets: ${all[*]})" >&2; return 2 ;;
  esac
}

build="$src/build-san"
names=()
for t in "${targets[@]}"; do seeds_of "$t" >/dev/null; names+=("fuzz_$t"); done
# report_json and policy link the whole core, built instrumented (about three minutes from cold on
# two cores, shared with the sanitizer unit tests); mountinfo and units only their parser.
# Exits 77, saying what is missing, without clang-14 or libFuzzer.
bash "$src/scripts/build-san.sh" "${names[@]}" >/dev/null

mkdir -p "$build/artifacts"
status=0
for t in "${targets[@]}"; do
  corpus=$(mktemp -d)  # new inputs land here, so the fixtures stay as they are
  rm -f "$build"/fuzz-*.log
  # -jobs runs that many fuzzers side by side, each logging to fuzz-N.log in the current
  # directory: here, the build directory.
  parallel=()
  [ "$jobs" -gt 1 ] && parallel=(-jobs="$jobs" -workers="$jobs")
  # shellcheck disable=SC2046
  if (cd "$build" && "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 \
       -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 "${parallel[@]}" \
       -artifact_prefix="$build/artifacts/$t-" "$corpus" $(seeds_of "$t")) \
       >"$build/fuzz_$t.log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build"/fuzz_"$t".log "$build"/fuzz-*.log \
             2>/dev/null | grep -o '[0-9]*$' | awk '{ n += $1 } END { print n }' || true)
    echo "fuzz_$t: ${runs:-?} inputs in ${seconds}s, no crash"
  else
    echo "fuzz_$t: FAILED; the last lines of $build/fuzz_$t.log:"
    tail -n 40 "$build/fuzz_$t.log" "$build"/fuzz-*.log 2>/dev/null
    status=1
  fi
  rm -rf "$corpus"
done
exit $status
