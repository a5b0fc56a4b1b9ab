#!/usr/bin/env bash
# Configures and builds build-san/, the sanitizer build: the unit tests and the libFuzzer targets
# (tests/fuzz/) from one compile of the core, with clang-14, AddressSanitizer +
# UndefinedBehaviorSanitizer (-fno-sanitize-recover=all) and libFuzzer's coverage, -O1 -g1.
# scripts/test.sh runs the unit tests there (ctest -L unit) and scripts/fuzz.sh the fuzzers.
# Usage: scripts/build-san.sh [TARGET...]   (default: durprobe_unit_tests and every fuzz target)
# Without clang-14 or libFuzzer it says so and builds the unit tests with the default compiler's
# sanitizers instead (-DDURPROBE_SANITIZE=ON, -O0 -g1); fuzz targets then cannot be built.
# ccache, when installed, serves the sources that did not change. docs/testing.md: what it costs.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build="$src/build-san"
fuzz_targets=(fuzz_report_json fuzz_policy fuzz_mountinfo fuzz_units fuzz_witness_protocol)
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

# What stands in the way of the clang build, or nothing.
missing=
if ! command -v clang++-14 >/dev/null 2>&1; then
  missing="clang++-14 is not installed"
else
  fuzzer_lib=$(clang++-14 -print-file-name=libclang_rt.fuzzer-x86_64.a 2>/dev/null || true)
  if [ ! -f "$fuzzer_lib" ] && [ ! -f /usr/lib/llvm-14/lib/libFuzzer.a ]; then
    missing="libFuzzer is not installed"
  fi
fi

if [ -z "$missing" ]; then
  kind=DURPROBE_FUZZ
  configure=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-14
    -DCMAKE_CXX_COMPILER=clang++-14 -DDURPROBE_FUZZ=ON
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1")
  targets=(durprobe_unit_tests "${fuzz_targets[@]}")
else
  kind=DURPROBE_SANITIZE
  configure=(-DCMAKE_BUILD_TYPE=Debug -DDURPROBE_SANITIZE=ON -DCMAKE_C_FLAGS_DEBUG=-g1
    -DCMAKE_CXX_FLAGS_DEBUG=-g1)
  for t in "$@"; do
    case "$t" in
      fuzz_*) echo "build-san.sh: cannot build $t: $missing (apt-get install clang-14" \
                "libfuzzer-14-dev)" >&2; exit 77 ;;
    esac
  done
  echo "build-san.sh: $missing: the unit tests get the default compiler's sanitizers," \
    "and no fuzz target is built (apt-get install clang-14 libfuzzer-14-dev)"
  targets=(durprobe_unit_tests)
fi
# A directory configured the other way (the other compiler) is started afresh.
if [ -f "$build/CMakeCache.txt" ] && ! grep -qx "$kind:BOOL=ON" "$build/CMakeCache.txt"; then
  rm -rf "$build"
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  gen=()  # Ninja where installed, as scripts/build.sh
  if command -v ninja >/dev/null 2>&1; then gen=(-G Ninja); fi
  cmake -S "$src" -B "$build" "${gen[@]}" "${configure[@]}" "${launcher[@]}" >/dev/null
fi
[ $# -eq 0 ] || targets=("$@")
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"
