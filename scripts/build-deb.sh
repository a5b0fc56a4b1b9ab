#!/usr/bin/env bash
# Builds the Debian package, build/durprobe_VERSION_amd64.deb (CPack: cmake/Package.cmake): the
# binary, durprobe(1), the bash completion and the docs, its dependencies from the binary's
# shared libraries. Then, with --check, installs it with apt in a fresh minbase Debian 12 root
# (mmdebstrap, with man-db; cached under /var/cache/durprobe, as the packages apt fetches for it)
# and runs `durprobe --version` and `man durprobe` there, and lintian on it where lintian is
# installed (scripts/deps.sh test installs it). Needs root for --check (unshare, chroot).
# Usage: scripts/build-deb.sh [--check] [--no-build]
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
. "$src/scripts/debian-root.sh"
check= build=1
for a in "$@"; do
  case $a in
    --check) check=1 ;;
    --no-build) build= ;;
    *) echo "usage: $0 [--check] [--no-build]" >&2; exit 2 ;;
  esac
done
if [ -n "$build" ]; then
  bash "$src/scripts/build.sh" --target durprobe --target durprobe_manual \
    --target durprobe_changelog
fi
(cd "$src/build" && cpack -G DEB >/dev/null)
deb=$(ls -t "$src"/build/durprobe_*_amd64.deb | head -n 1)
echo "build-deb: $deb: $(dpkg-deb -f "$deb" Depends)"
[ -n "$check" ] || exit 0

status=0
if command -v lintian >/dev/null 2>&1; then
  if lintian --fail-on error "$deb" >"$src/build/lintian.log" 2>&1; then
    echo "build-deb: lintian: no error ($(grep -c '^[WI]:' "$src/build/lintian.log") warnings" \
      "and notes in build/lintian.log)"
  else
    echo "build-deb: lintian reports errors:"; cat "$src/build/lintian.log"; status=1
  fi
else
  echo "build-deb: lintian is not installed: not checked (scripts/deps.sh test installs it)"
fi
t0=$SECONDS
tar=$(debian_root_tar bookworm man man-db)
root=$(mktemp -d /var/tmp/durprobe-deb.XXXXXX)
trap 'rm -rf "$root"' EXIT
tar -C "$root" -xf "$tar"
cp "$deb" "$root/root/"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# apt's downloads kept between runs, so the second run fetches nothing.
archives=${DURPROBE_ROOT_CACHE:-/var/cache/durprobe}/apt-bookworm
mkdir -p "$archives/partial" "$root/var/cache/apt/archives"
unshare --mount --fork --propagation private -- bash -c '
  set -e
  . "$3/scripts/debian-root.sh"
  drop_host_mounts
  mount --bind "$1" "$2/var/cache/apt/archives"
  in_root "$2" bash -c "
    set -e
    export DEBIAN_FRONTEND=noninteractive
    install() { apt-get install -y -q --no-install-recommends /root/$4 >/tmp/apt.log 2>&1; }
    if ! install; then apt-get update -q >/dev/null && install || { cat /tmp/apt.log; exit 1; }; fi
    grep -E \"^(Get|Need to get)\" /tmp/apt.log | sed \"s/^/  apt: /\" | tail -n 4 || true
    durprobe --version
    man -P cat durprobe 2>/dev/null | grep -m 1 -A 1 ^NAME
    test -f /usr/share/bash-completion/completions/durprobe
    echo \"  bash completion: /usr/share/bash-completion/completions/durprobe\""' \
  deb-root "$archives" "$root" "$src" "$(basename "$deb")" || status=1
echo "build-deb: apt install in a fresh Debian 12 root: $([ "$status" = 0 ] && echo passed ||
  echo FAILED) ($((SECONDS - t0)) s)"
exit "$status"
