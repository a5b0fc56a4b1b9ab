#!/usr/bin/env bash
# Builds the durprobe container image without any container registry: a minimal Debian 12 root
# made by mmdebstrap from Debian's own packages (the essential set and the packages of the
# libraries the binary links, read from ldd), the durprobe binary in /usr/local/bin, imported
# with `podman import` as localhost/durprobe:VERSION (VERSION from `durprobe --version`).
# With --save, also writes the image as an archive for an air-gapped cluster:
#   podman load -i durprobe-VERSION.tar        docker load -i durprobe-VERSION.tar
#   ctr -n k8s.io images import durprobe-VERSION.tar   (containerd nodes; the manifests in
#                                               deploy/kubernetes use the name it carries)
# The Debian root is cached (--cache): only its first build downloads packages (about 2 minutes
# here); later builds append the binary and import it in seconds. Concurrent builds wait for one
# another (flock on the cache).
# Usage: deploy/image/build.sh [--durprobe BIN] [--name NAME] [--cache DIR] [--save FILE]
#                              [--mirror URL] [--print-tag]
#   --durprobe BIN  the binary to put in the image (default build/durprobe)
#   --name NAME     repository name (default localhost/durprobe); the tag is the version
#   --cache DIR     where the Debian root is kept (default ~/.cache/durprobe-image)
#   --save FILE     also `podman save` the image to FILE (docker-archive)
#   --mirror URL    Debian mirror for mmdebstrap (default: the host's apt sources)
#   --print-tag     print NAME:VERSION and exit (what the build would produce)
# Exit status: 0 built; 2 bad usage or a missing tool; 3 the Debian root could not be built
# (mmdebstrap failed: usually no route to a Debian mirror); 1 anything else.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
usage="usage: $0 [--durprobe BIN] [--name NAME] [--cache DIR] [--save FILE] [--mirror URL]"
usage+=" [--print-tag]"
bin=$src/build/durprobe name=localhost/durprobe cache=${XDG_CACHE_HOME:-$HOME/.cache}/durprobe-image
save= mirror= print_tag=
while [ $# -gt 0 ]; do
  case "$1" in
    --durprobe) bin=$2; shift 2 ;;
    --name) name=$2; shift 2 ;;
    --cache) cache=$2; shift 2 ;;
    --save) save=$2; shift 2 ;;
    --mirror) mirror=$2; shift 2 ;;
    --print-tag) print_tag=1; shift ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
[ -x "$bin" ] || { echo "build-image: no durprobe binary at $bin (scripts/build.sh)" >&2; exit 2; }
version=$("$bin" --version | awk '{print $2; exit}')
[ -n "$version" ] || { echo "build-image: $bin --version printed no version" >&2; exit 2; }
tag=$name:$version
if [ -n "$print_tag" ]; then echo "$tag"; exit 0; fi
for tool in mmdebstrap podman tar flock sha256sum; do
  command -v "$tool" >/dev/null ||
    { echo "build-image: $tool not found (Debian: apt-get install $tool)" >&2; exit 2; }
done

# What the image holds besides Debian's essential set: the packages of the binary's runtime
# libraries (it links them dynamically), read from ldd and dpkg so that a library added to the
# build cannot be left out of the image. Documentation, manuals and locales are left out.
suite=bookworm
packages=
for lib in $(ldd "$bin" | awk '$3 ~ /^\// {print $3}'); do
  pkg=$({ dpkg -S "$lib" || dpkg -S "$(readlink -f "$lib")"; } 2>/dev/null | head -1 | cut -d: -f1)
  [ -n "$pkg" ] ||
    { echo "build-image: no Debian package holds $lib, which $bin links" >&2; exit 2; }
  case ",$packages," in *",$pkg,"*) ;; *) packages=${packages:+$packages,}$pkg ;; esac
done
recipe="$suite essential $packages nodoc-1"
key=$(echo "$recipe" | sha256sum | cut -c1-16)
mkdir -p "$cache"
base=$cache/debian-$suite-$key.tar
exec 9>"$cache/lock"
flock 9
if [ ! -s "$base" ]; then
  echo "build-image: building the Debian root ($recipe) in $base" >&2
  if ! mmdebstrap --quiet --format=tar --variant=essential --include="$packages" \
      --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
      --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
      "$suite" "$base.part" ${mirror:+"$mirror"} >&2; then
    rm -f "$base.part"
    echo "build-image: mmdebstrap could not build the Debian root (is a Debian mirror" \
         "reachable? --mirror URL)" >&2
    exit 3
  fi
  mv "$base.part" "$base"
fi

# The same binary on the same Debian root already imported under this tag is not imported
# again (a test suite asks once per test).
sum=$(sha256sum "$bin" | cut -c1-64)
label='{{ index .Config.Labels "io.github.durprobe.binary-sha256" }}'
label+=' {{ index .Config.Labels "io.github.durprobe.root" }}'
if [ "$(podman image inspect --format "$label" "$tag" 2>/dev/null)" != "$sum $key" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/layer/usr/local/bin" "$work/layer/data"
  install -m 0755 "$bin" "$work/layer/usr/local/bin/durprobe"
  cp "$base" "$work/rootfs.tar"
  tar --append --file "$work/rootfs.tar" --owner=0 --group=0 --numeric-owner -C "$work/layer" \
    ./usr/local/bin/durprobe ./data
  podman import --quiet \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'ENTRYPOINT ["/usr/local/bin/durprobe"]' \
    --change 'CMD ["--help"]' \
    --change 'WORKDIR /data' \
    --change "LABEL org.opencontainers.image.title=durprobe" \
    --change "LABEL org.opencontainers.image.version=$version" \
    --change "LABEL org.opencontainers.image.source=deploy/image/build.sh" \
    --change "LABEL io.github.durprobe.binary-sha256=$sum" \
    --change "LABEL io.github.durprobe.root=$key" \
    --message "durprobe $version on Debian $suite (deploy/image/build.sh)" \
    "$work/rootfs.tar" "$tag" >/dev/null
fi
if [ -n "$save" ]; then
  rm -f "$save"  # podman save refuses to overwrite
  podman save --quiet --format docker-archive -o "$save" "$tag"
fi
echo "$tag"
