#!/usr/bin/env bash
# Builds build/durprobe-static: durprobe linked with -static (glibc, libstdc++, SQLite, liburing,
# libfuse3 from their archives), for any x86-64 Linux with no library installed. The same objects
# as build/durprobe, linked once more (cmake/Static.cmake). Extra arguments go to cmake's
# configure, as scripts/build.sh's. What it lacks against the packaged build: host names (numeric
# addresses only, said by --version and by the command that meets one).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
bash "$src/scripts/build.sh" --target durprobe-static "$@"
bin=$src/build/durprobe-static
[ -x "$bin" ] || { echo "build-static: no $bin (cmake said why: durprobe-static left out)" >&2
  exit 2; }
echo "build-static: $bin ($(du -k "$bin" | cut -f1) KiB): $("$bin" --version)"
