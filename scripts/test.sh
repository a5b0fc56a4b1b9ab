#!/usr/bin/env bash
# Installs what is missing (with the peers and lab tools), builds, and runs the whole test suite.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
bash "$src/scripts/deps.sh" test
bash "$src/scripts/build.sh"
cd "$src/build"
ctest --output-on-failure -j1 "$@"
