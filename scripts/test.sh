#!/usr/bin/env bash
# Installs what is missing (with the peers, lab and fuzzing tools), builds, and runs the whole
# test suite (unit, integration, and fuzz: a few seconds of each fuzzer). Then builds what the
# unit tests need again with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/ and
# runs the unit tests under it: unoptimised (Debug), as compiling with the sanitizers at -O2 costs
# three times the CPU and the unit tests are fast either way. docs/testing.md describes each part.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
bash "$src/scripts/deps.sh" test
bash "$src/scripts/build.sh"
cd "$src/build"
ctest --output-on-failure -j1 "$@"

cmake -S "$src" -B "$src/build-asan" -DCMAKE_BUILD_TYPE=Debug -DDURPROBE_SANITIZE=ON \
  >/dev/null
cmake --build "$src/build-asan" -j"$(nproc)" --target durprobe_unit_tests durprobe
cd "$src/build-asan"
ctest --output-on-failure -j"$(nproc)" -L unit
