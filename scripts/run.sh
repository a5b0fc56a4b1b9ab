#!/usr/bin/env bash
# The main job: install what the binary needs, build it (the binary alone: the tests are
# scripts/test.sh's), and run a full report on the directory the script was called from (or the
# paths given). Example: bash /path/to/durprobe/scripts/run.sh
set -euo pipefail
here=$(pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
bash "$src/scripts/deps.sh" build
bash "$src/scripts/build.sh" --target durprobe
cd "$here"
exec "$src/build/durprobe" run "${@:-.}"
