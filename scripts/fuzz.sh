#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/) with clang-14 in build-fuzz/ and runs each for a while,
# seeded from tests/fixtures. A crash, leak, sanitizer report or timeout fails the run and leaves
# the input in build-fuzz/artifacts/ (replay: build-fuzz/tests/fuzz/fuzz_NAME INPUT).
# Usage: scripts/fuzz.sh [--seconds N] [--jobs N] [TARGET...]   (default: 5 s each, every target)
#   targets: report_json policy mountinfo units
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
# report_json and policy link the whole core (built instrumented, in batches: about two minutes
# from cold on two cores); mountinfo and units only their parser.
all=(report_json policy mountinfo units)
targets=("${@:-${all[@]}}")

if ! command -v clang++-14 >/dev/null 2>&1; then
  echo "fuzz.sh: skipped: clang++-14 is not installed (apt-get install clang-14 libfuzzer-14-dev)"
  exit 77
fi
fuzzer_lib=$(clang++-14 -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null || true)
if [ ! -f "$fuzzer_lib" ] && [ ! -f /usr/lib/llvm-14/lib/libFuzzer.a ]; then
  echo "fuzz.sh: skipped: libFuzzer is not installed (apt-get install libfuzzer-14-dev)"
  exit 77
fi

# Seeds per target, read-only: the fixtures, plus every earlier crash kept as a regression input.
seeds_of() {
  case "$1" in
    report_json) echo "$src/tests/fixtures/diff $src/tests/fixtures/fuzz/report_json" ;;
    mountinfo) echo "$src/tests/fixtures/mountinfo $src/tests/fixtures/fuzz/mountinfo" ;;
    units) echo "$src/tests/fixtures/fuzz/units" ;;
    policy) echo "$src/tests/fixtures/fuzz/policy" ;;
    *) echo "fuzz.sh: unknown target '$1' (targets: ${all[*]})" >&2; return 2 ;;
  esac
}

build="$src/build-fuzz"
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  # -O1 -g1: line tables for the sanitizers' stacks, and a fifth less build time than -O2 -g
  # (2m23s -> 1m57s from cold on two cores) for the same coverage feedback.
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-14 \
    -DCMAKE_CXX_COMPILER=clang++-14 -DDURPROBE_FUZZ=ON -DDURPROBE_BUILD_TESTS=OFF \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    "${launcher[@]}" >/dev/null
fi
names=()
for t in "${targets[@]}"; do seeds_of "$t" >/dev/null; names+=("fuzz_$t"); done
cmake --build "$build" -j2 --target "${names[@]}" >/dev/null

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
