#!/usr/bin/env bash
# Sourced by the scripts that run durprobe in a Debian root of another release or without its
# build dependencies (build-debian13.sh, smoke-static.sh, deb-test.sh). Not run on its own.
#
# debian_root_tar SUITE NAME [PACKAGE,...]: prints the path of a tarball of a minbase Debian
#   SUITE root with those packages, made by mmdebstrap on first use and kept under
#   /var/cache/durprobe (DURPROBE_ROOT_CACHE), so a second run downloads nothing. Says on stderr
#   when it had to download.
# in_root DIR COMMAND...: runs COMMAND in the root unpacked at DIR, in a mount namespace of its
#   own (unshare), with /proc, /sys, /dev and a tmpfs /tmp mounted (the mounts go with it), and
#   an environment of PATH, HOME and TERM alone.

debian_root_tar() {
  local suite=$1 name=$2 include=${3:-}
  local cache=${DURPROBE_ROOT_CACHE:-/var/cache/durprobe}
  local tar=$cache/$suite-$name.tar
  if [ ! -s "$tar" ]; then
    command -v mmdebstrap >/dev/null ||
      { echo "debian-root: mmdebstrap is not installed (scripts/deps.sh test)" >&2; return 2; }
    mkdir -p "$cache"
    echo "debian-root: downloading Debian $suite (minbase${include:+ + $include}) into $tar" >&2
    local t0=$SECONDS
    mmdebstrap --quiet --variant=minbase ${include:+--include="$include"} \
      --skip=cleanup/apt/lists "$suite" "$tar.part.tar" >&2 ||
      { rm -rf "$tar.part.tar"; return 1; }
    mv "$tar.part.tar" "$tar"
    echo "debian-root: $tar made in $((SECONDS - t0)) s" >&2
  fi
  echo "$tar"
}

# drop_host_mounts: in a mount namespace of its own, lazily unmounts its copies of the host's
#   FUSE mounts and of every mount under /tmp: a FUSE mount's copy would keep its server alive
#   after the host unmounted it, and with it whatever that server serves busy (the lab's ext4 and
#   tmpfs under another test: "target is busy" at its teardown). in_root does the same inline.
drop_host_mounts() {
  awk '{ for (i = 7; $i != "-"; i++); if ($(i + 1) ~ /^fuse/ || $5 ~ /^\/tmp\//) print $5 }' \
    /proc/self/mountinfo | sort -r | while read -r m; do umount -l "$m" 2>/dev/null || true; done
}

in_root() {
  local dir=$1
  shift
  unshare --mount --fork --propagation private -- bash -c '
    set -e
    d=$1; shift
    # The copies of the host'"'"'s mounts this root never uses go first: a FUSE mount'"'"'s copy would
    # keep its server alive after the host unmounted it, and with it whatever that server serves
    # busy (the lab'"'"'s ext4 and tmpfs under another test: "target is busy" at its teardown).
    awk '"'"'{ for (i = 7; $i != "-"; i++); if ($(i + 1) ~ /^fuse/ || $5 ~ /^\/tmp\//) print $5 }'"'"' \
      /proc/self/mountinfo | sort -r | while read -r m; do umount -l "$m" 2>/dev/null || true; done
    mount -t proc proc "$d/proc"
    mount --rbind /sys "$d/sys"
    mount --rbind /dev "$d/dev"
    mount -t tmpfs tmpfs "$d/tmp"
    exec env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin HOME=/root TERM=dumb \
      /usr/sbin/chroot "$d" "$@"' in_root "$dir" "$@"
}
