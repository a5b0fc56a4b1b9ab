#!/usr/bin/env bash
# Installs what durprobe needs from Debian 12 packages, skipping what is already there.
# Usage: scripts/deps.sh [build|test]
#   build  what the binary needs (scripts/run.sh): compiler, cmake and the libraries
#   test   also GoogleTest and the peers, lab, packaging and fuzzing tools the suite uses
set -euo pipefail
want=(build-essential cmake libsqlite3-dev libcli11-dev libfmt-dev nlohmann-json3-dev
  libtomlplusplus-dev liburing-dev libfuse3-dev pkg-config
  ninja-build)  # the faster generator, where installed (scripts/build.sh)
if [ "${1:-build}" = test ]; then
  want+=(libgtest-dev
         lintian man-db  # the Debian package's check (scripts/build-deb.sh --check)
         fio postgresql-15 sqlite3 strace bindfs xfsprogs btrfs-progs e2fsprogs util-linux
         fuse3  # fusermount3, for the crash device (platform/crash_device.h)
         libxml2-dev libxml2-utils chromium  # the HTML page's parser and browser tests
         prometheus ansible-core  # check's Prometheus output and deploy/ tests
         clang-14 libfuzzer-14-dev  # the fuzzers (scripts/fuzz.sh)
         eatmydata  # a no-op sync preload the risk column must see through
         podman runc mmdebstrap  # the image (deploy/image/build.sh) and the container tests
         catatonit  # the infra container of `podman kube play` (the manifests' pod tests)
         etcd-server etcd-client curl)  # scripts/bench-vs-real.sh and its tests
fi
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
