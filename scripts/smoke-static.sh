#!/usr/bin/env bash
# Runs build/durprobe-static where no library is installed: `--version`, `inspect`,
# `probe --quick`, `sqlite --quick` and `check --preset etcd --quick` on a tmpfs, first in an
# empty root (the binary alone, with /proc, /sys, /dev and a tmpfs /tmp), then in a minbase
# Debian 13 root made by mmdebstrap (cached under /var/cache/durprobe; the first run downloads it
# and says so) where it checks that none of durprobe's build dependencies is installed.
# scripts/test.sh runs it beside the tests. Needs root (unshare, chroot).
# Usage: scripts/smoke-static.sh [BINARY]   (default build/durprobe-static)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/scripts/debian-root.sh"
bin=${1:-$src/build/durprobe-static}
[ -x "$bin" ] || { echo "smoke-static: no $bin (scripts/build-static.sh)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "smoke-static: needs root (unshare, chroot)" >&2; exit 2; }
work=$(mktemp -d /var/tmp/durprobe-smoke.XXXXXX)
trap 'rm -rf "$work"' EXIT

# smoke ROOT DURPROBE: the five commands in ROOT, each one's first line and exit status; returns
# non-zero when one could not run (check's 1, a rule failed on the tmpfs, still ran).
smoke() {
  local root=$1 dp=$2 name rc failed=0
  local cmds=("--version" "inspect /tmp" "probe /tmp --quick" "sqlite /tmp --quick"
    "check /tmp --preset etcd --quick")
  for c in "${cmds[@]}"; do
    rc=0
    # shellcheck disable=SC2086  # each command is words
    in_root "$root" "$dp" $c >"$work/out" 2>&1 || rc=$?
    name="durprobe ${c%% *}"
    if [ "$rc" -eq 0 ] || { [ "$rc" -eq 1 ] && [[ $c == check* ]]; }; then
      echo "  $name: exit $rc: $(grep -m1 -E '^ *(path|filesystem|check:|durprobe [0-9])' \
        "$work/out" | sed 's/^ *//' | cut -c1-90)"
    else
      echo "  $name: exit $rc (FAILED):"
      sed 's/^/    /' "$work/out" | tail -n 20
      failed=1
    fi
  done
  return "$failed"
}

status=0
t0=$SECONDS
empty=$work/empty
mkdir -p "$empty"/{proc,sys,dev,tmp}
cp "$bin" "$empty/durprobe"
echo "smoke-static: an empty root (the binary, /proc, /sys, /dev, a tmpfs /tmp)"
smoke "$empty" /durprobe || status=1
t1=$SECONDS

tar=$(debian_root_tar trixie minbase)
deb=$work/trixie
mkdir -p "$deb"
tar -C "$deb" -xf "$tar"
cp "$bin" "$deb/usr/local/bin/durprobe"
# What a build would need: none of it may be there, or the test proves nothing.
build_deps='^(g\+\+|gcc|cmake|ninja-build|pkg-config)(-[0-9]+)?(:|$)|-dev(:|$)'
installed=$(chroot "$deb" dpkg-query -W -f='${binary:Package} ${Status}\n' 2>/dev/null |
  awk '/ installed$/ { print $1 }')
present=$(grep -E "$build_deps" <<<"$installed" || true)
if [ -n "$present" ]; then
  echo "smoke-static: the Debian 13 root has build dependencies installed:" $present >&2
  status=1
fi
libs=$(grep -E '^lib(sqlite3-0|uring2|fuse3-[0-9]|fmt[0-9]+|tomlplusplus[0-9]*)(:|$)' \
  <<<"$installed" || true)
echo "smoke-static: a Debian 13 minbase root (no compiler, no -dev package; of the libraries" \
  "durprobe links, installed there:" ${libs:-none} "(the static binary uses none))"
smoke "$deb" /usr/local/bin/durprobe || status=1
verdict=passed
[ "$status" = 0 ] || verdict=FAILED
echo "smoke-static: $verdict (empty root $((t1 - t0)) s, Debian 13 root $((SECONDS - t1)) s)"
exit "$status"
