#!/usr/bin/env bash
# Configures and builds durprobe (Release) in build/.
# Usage: scripts/build.sh [--target NAME]... [CMAKE-CONFIGURE-ARGUMENT...]
#   --target NAME  build only NAME (repeatable; default every target, the tests among them):
#                  scripts/run.sh builds durprobe alone, scripts/build-static.sh durprobe-static
set -euo pipefail
cd "$(dirname "$0")/.."
targets=()
while [ $# -gt 0 ] && [ "$1" = --target ]; do
  targets+=(--target "$2")
  shift 2
done
# Ninja where it is installed (scripts/deps.sh adds it): it compiles a room's sources while the
# rooms below it still link, where Make waits for each library (a cold build 4m12s against
# 5m09s, docs/testing.md). A directory configured with another generator keeps it.
gen=()
if command -v ninja >/dev/null 2>&1 &&
  ! grep -q '^CMAKE_GENERATOR:INTERNAL=Unix Makefiles$' build/CMakeCache.txt 2>/dev/null; then
  gen=(-G Ninja)
fi
cmake -S . -B build "${gen[@]}" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build build -j"$(nproc)" "${targets[@]}"
