#!/usr/bin/env bash
# A lab of real mounts for durprobe's integration tests and for trying `durprobe inspect` (root).
#
#   scripts/lab-mounts.sh up DIR     mount everything below under DIR (idempotent)
#   scripts/lab-mounts.sh down DIR   unmount and remove all of it (idempotent; DIR itself stays)
#
# Under DIR: ext4/ (loop-backed ext4), ext4-nobarrier/ (the same, mounted barrier=0), xfs/, btrfs/
# (loop-backed; sparse images in img/), tmpfs/, overlay/ (lower in overlay-lower/, upper and work
# on the ext4 mount), bind/ (a bind of ext4/bind-src) and bindfs/ (a FUSE bindfs of
# ext4/bindfs-src); and two paths whose syncs reach only memory however real they look:
# loop-on-tmpfs/ (ext4 on a loop device whose backing file is tmpfs/loop-on-tmpfs.img) and
# overlay-tmpfs-upper/ (an overlay whose upper and work directories are on tmpfs/), and
# overlay-volatile/ (an overlay on ext4 mounted volatile, which the kernel shows as fsync=volatile). `up` installs xfsprogs, btrfs-progs and bindfs from Debian when missing.
# Each mount that cannot be made (a kernel without btrfs, no /dev/fuse) is reported on stderr and
# skipped; `up` then exits 1 after making the others, so callers can test what is there.
set -uo pipefail

usage() { echo "usage: $0 up|down DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
[ "$(id -u)" -eq 0 ] || { echo "lab-mounts.sh: must run as root (mount, losetup)" >&2; exit 2; }
mkdir -p "$2" || exit 2
dir=$(realpath "$2")
[ "$dir" != / ] || { echo "lab-mounts.sh: refusing to use / as the lab directory" >&2; exit 2; }

# Mount points, in the order `up` makes them; `down` goes in reverse (dependents first).
mounts=(ext4 ext4-nobarrier xfs btrfs tmpfs loop-on-tmpfs overlay overlay-tmpfs-upper overlay-volatile
        bind bindfs)
failed=()

say() { echo "lab-mounts.sh: $*" >&2; }

ensure_tools() {
  local need=() pair
  for pair in mkfs.ext4:e2fsprogs mkfs.xfs:xfsprogs mkfs.btrfs:btrfs-progs bindfs:bindfs \
              losetup:mount mountpoint:util-linux; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || need+=("${pair#*:}")
  done
  [ ${#need[@]} -eq 0 ] && return 0
  say "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
}

# From the mount table, not stat: a FUSE mount whose server died answers stat with ENOTCONN
# ("Transport endpoint is not connected") and must still be found, to be unmounted.
mounted() { awk -v p="$dir/$1" '$5 == p { found = 1 } END { exit !found }' /proc/self/mountinfo; }

# image NAME SIZE FSTYPE MKFS...: a sparse image, formatted once (blkid tells on a rerun).
image() {
  local name=$1 size=$2 fstype=$3 img="$dir/img/$1.img"
  shift 3
  [ -f "$img" ] || truncate -s "$size" "$img" || return 1
  [ "$(blkid -o value -s TYPE "$img" 2>/dev/null)" = "$fstype" ] && return 0
  "$@" "$img" >/dev/null 2>&1
}

# loop_mount NAME SIZE FSTYPE OPTIONS MKFS...: a loop-backed filesystem at DIR/NAME.
loop_mount() {
  local name=$1 size=$2 fstype=$3 opts=$4
  shift 4
  mounted "$name" && return 0
  mkdir -p "$dir/$name"
  image "$name" "$size" "$fstype" "$@" || return 1
  mount -t "$fstype" -o "loop${opts:+,$opts}" "$dir/img/$name.img" "$dir/$name"
}

try() {  # try NAME COMMAND...: run, and remember NAME when it fails
  local name=$1
  shift
  "$@" || { say "could not set up $name"; failed+=("$name"); }
}

up() {
  ensure_tools || { say "could not install the lab tools"; exit 1; }
  mkdir -p "$dir/img"
  try ext4 loop_mount ext4 128M ext4 "" mkfs.ext4 -q -F
  try ext4-nobarrier loop_mount ext4-nobarrier 128M ext4 barrier=0 mkfs.ext4 -q -F
  # xfs refuses filesystems under 300 MiB; the image is sparse, so it costs little.
  try xfs loop_mount xfs 320M xfs "" mkfs.xfs -q -f
  try btrfs loop_mount btrfs 256M btrfs "" mkfs.btrfs -q -f
  mkdir -p "$dir/tmpfs"
  mounted tmpfs || try tmpfs mount -t tmpfs -o size=128m durprobe-lab-tmpfs "$dir/tmpfs"
  if mounted tmpfs; then
    if ! mounted loop-on-tmpfs; then
      mkdir -p "$dir/loop-on-tmpfs"
      local img="$dir/tmpfs/loop-on-tmpfs.img"
      [ -f "$img" ] || { truncate -s 96M "$img" && mkfs.ext4 -q -F "$img" >/dev/null 2>&1; }
      try loop-on-tmpfs mount -t ext4 -o loop "$img" "$dir/loop-on-tmpfs"
    fi
    mkdir -p "$dir/overlay-tmpfs-lower" "$dir/tmpfs/ovl-upper" "$dir/tmpfs/ovl-work" \
             "$dir/overlay-tmpfs-upper"
    mounted overlay-tmpfs-upper || try overlay-tmpfs-upper mount -t overlay \
      durprobe-lab-overlay-tmpfs -o \
      "lowerdir=$dir/overlay-tmpfs-lower,upperdir=$dir/tmpfs/ovl-upper,workdir=$dir/tmpfs/ovl-work" \
      "$dir/overlay-tmpfs-upper"
  else
    say "tmpfs is not mounted: skipping loop-on-tmpfs and overlay-tmpfs-upper"
    failed+=(loop-on-tmpfs overlay-tmpfs-upper)
  fi
  if mounted ext4; then
    mkdir -p "$dir/overlay-lower" "$dir/ext4/overlay-upper" "$dir/ext4/overlay-work" \
             "$dir/overlay" "$dir/ext4/bind-src" "$dir/bind" "$dir/ext4/bindfs-src" "$dir/bindfs"
    echo lower >"$dir/overlay-lower/from-lower"
    mounted overlay || try overlay mount -t overlay durprobe-lab-overlay -o \
      "lowerdir=$dir/overlay-lower,upperdir=$dir/ext4/overlay-upper,workdir=$dir/ext4/overlay-work" \
      "$dir/overlay"
    mkdir -p "$dir/ext4/ovl-volatile-upper" "$dir/ext4/ovl-volatile-work" "$dir/overlay-volatile"
    mounted overlay-volatile || try overlay-volatile mount -t overlay durprobe-lab-overlay-volatile \
      -o "lowerdir=$dir/overlay-lower,upperdir=$dir/ext4/ovl-volatile-upper" \
      -o "workdir=$dir/ext4/ovl-volatile-work,volatile" "$dir/overlay-volatile"
    mounted bind || try bind mount --bind "$dir/ext4/bind-src" "$dir/bind"
    if [ -c /dev/fuse ]; then
      # libfuse 3 no longer names the program in mountinfo by default (the type is plain
      # "fuse"); subtype= restores "fuse.bindfs", as libfuse 2 filesystems show it.
      mounted bindfs || try bindfs bindfs -o subtype=bindfs "$dir/ext4/bindfs-src" "$dir/bindfs"
    else
      say "no /dev/fuse: skipping bindfs"
      failed+=(bindfs)
    fi
  else
    say "ext4 is not mounted: skipping overlay, bind and bindfs (their layers live on it)"
    failed+=(overlay overlay-volatile bind bindfs)
  fi
  if [ ${#failed[@]} -gt 0 ]; then
    say "not set up: ${failed[*]}"
    exit 1
  fi
}

# unmount MOUNTPOINT: umount, again for up to 5 s while it is busy. A loop device's autoclear
# releases its backing file after the unmount returns, asynchronously: tmpfs/, which holds
# loop-on-tmpfs's image, was once still busy a moment after loop-on-tmpfs went ("target is
# busy" at a lab teardown under load). A loop device still backed by a file below the mount
# point is detached before each retry.
unmount() {
  local point=$1 try loop
  for ((try = 0; try < 25; try++)); do
    umount "$point" 2>/dev/null && return 0
    for loop in $(losetup -l -n -O NAME,BACK-FILE 2>/dev/null | awk -v p="$point/" \
      'index($2, p) == 1 { print $1 }'); do
      losetup -d "$loop" 2>/dev/null || true
    done
    sleep 0.2
  done
  umount "$point"  # its own message, for the log
}

down() {
  local i name status=0 img loop
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    name=${mounts[$i]}
    mounted "$name" || continue
    unmount "$dir/$name" || { say "could not unmount $dir/$name"; status=1; }
  done
  # mount -o loop sets autoclear, so the loops go with the unmount; detach any that stayed.
  for img in "$dir"/img/*.img; do
    [ -f "$img" ] || continue
    for loop in $(losetup -j "$img" -O NAME -n 2>/dev/null); do
      # autoclear may detach it between the listing and -d (ENXIO): only a loop still there fails.
      losetup -d "$loop" 2>/dev/null && continue
      if losetup -j "$img" -O NAME -n 2>/dev/null | grep -qx "[[:space:]]*$loop[[:space:]]*"; then
        say "could not detach $loop from $img"
        status=1
      fi
    done
  done
  for name in "${mounts[@]}"; do
    if mounted "$name"; then status=1; continue; fi
    rm -rf "${dir:?}/$name"
  done
  rm -rf "${dir:?}/img" "${dir:?}/overlay-lower" "${dir:?}/overlay-tmpfs-lower"
  exit $status
}

case $action in
  up) up ;;
  down) down ;;
  *) usage ;;
esac
