#!/usr/bin/env bash
# Builds durprobe and runs its unit tests on Debian 13 (trixie: GCC 14, fmt 10, CLI11 2.4, its
# SQLite), in a minbase root made by mmdebstrap with the build dependencies from Debian's
# packages (cached under /var/cache/durprobe after the first run). Needs root (unshare, chroot)
# and mmdebstrap; the tree is bound read-only, the root goes at the end, and its /build is
# /var/cache/durprobe/build-SUITE, kept, so a second run compiles only what changed (ninja -k 0:
# every failing file is shown, not the first alone). Not part of CI: docs/testing.md says when to
# run it and what it costs.
# Usage: scripts/build-debian13.sh [SUITE]   (default trixie; another suite, e.g. bookworm, is
#   built alike, not tried yet)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/scripts/debian-root.sh"
suite=${1:-trixie}
[ "$(id -u)" = 0 ] || { echo "build-debian13: needs root (unshare, chroot)" >&2; exit 2; }
t0=$SECONDS
deps=build-essential,cmake,ninja-build,pkg-config,libsqlite3-dev,libcli11-dev,libfmt-dev
deps+=,nlohmann-json3-dev,libgtest-dev,libtomlplusplus-dev,liburing-dev,libfuse3-dev
tar=$(debian_root_tar "$suite" build "$deps")
root=$(mktemp -d /var/tmp/durprobe-"$suite".XXXXXX)
trap 'rm -rf "$root"' EXIT
tar -C "$root" -xf "$tar"
builddir=${DURPROBE_ROOT_CACHE:-/var/cache/durprobe}/build-$suite
mkdir -p "$root/src" "$root/build" "$builddir"
echo "build-debian13: $suite root ready in $((SECONDS - t0)) s; building"
unshare --mount --fork --propagation private -- bash -c '
  set -e
  mount --bind -o ro "$1" "$2/src"
  mount --bind "$3" "$2/build"
  . "$1/scripts/debian-root.sh"
  in_root "$2" bash -c "
    set -eo pipefail
    gcc --version | head -n 1
    cmake -S /src -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
    nice cmake --build /build -j\$(nproc) --target durprobe durprobe_unit_tests -- -k 0
    cd /build && ctest -L unit -j\$(nproc) --output-on-failure >ctest.log ||
      { tail -n 40 ctest.log; exit 1; }
    grep -E \"tests passed|tests failed\" ctest.log
    echo \"skipped: \$(grep -c \"(Skipped)\" ctest.log) (why: build-\$(. /etc/os-release;
      echo \$VERSION_CODENAME)/Testing/Temporary/LastTest.log)\"
    /build/durprobe --version"' build "$src" "$root" "$builddir"
echo "build-debian13: $suite built and unit-tested in $((SECONDS - t0)) s"
