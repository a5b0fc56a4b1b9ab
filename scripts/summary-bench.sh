#!/usr/bin/env bash
# What the summary and the settings to use cost (issue 22): deciding them for a saved report and
# rendering the console and HTML with and without them, in process, interleaved rounds, medians.
# usage: scripts/summary-bench.sh [BUILD_DIR] [REPORT.json] [ROUNDS]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$here/build}"
report="${2:-$here/tests/fixtures/golden/reports/run.json}"
rounds="${3:-200}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
g++ -O3 -DNDEBUG -DFMT_SHARED -DTOML_HEADER_ONLY=0 -DTOML_SHARED_LIB=1 -std=c++20 \
  -I"$here" -I"$build/generated" "$here/scripts/bench/summary_bench.cc" \
  -Wl,--start-group "$build"/libdurprobe_*.a -Wl,--end-group \
  -lsqlite3 -lfmt -ltomlplusplus -lpthread -o "$out/summary_bench"
"$out/summary_bench" "$report" "$rounds"
