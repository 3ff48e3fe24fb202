#!/usr/bin/env bash
# Prints the path of a Godot 4 editor built from Debian's source package for one purpose,
# building it the first time (an hour or more on two cores; needs root).
#
#   scripts/provision-engine-build.sh asan            AddressSanitizer (use_asan=yes, -O1)
#   scripts/provision-engine-build.sh double          double precision (precision=double)
#   scripts/provision-engine-build.sh VARIANT --check print the path, or why there is none (exit 1)
#
# Order: the user's own engine if they name one ($GODOT_ASAN, $GODOT_DOUBLE); else the
# machine-wide cache $FVC_MACHINE_CACHE (default /var/cache/fast-variant-codec), outside any
# clone, so that one build serves every clone and every CI run on the machine.
#
# What every build shares: Debian sid's `godot` source package (its upstream tarball, built
# with debian/rules' scons options: system libraries, no bundled copies), target=editor,
# compiled in one sid root with Debian's build dependencies by the clang of the LLVM that
# rustc is built on (so that the AddressSanitizer runtime the engine links is the one the
# codec's instrumented library expects), linked by lld; tests and the Vulkan driver left out
# (nothing headless uses them). The variants' object files carry different suffixes, so they
# share one source tree. Each runs through the build root's own loader and libraries, like
# the plain engine (scripts/debian-root.sh).
set -euo pipefail

variant="${1:-}"
check_only=0
[ "${2:-}" = --check ] && check_only=1

case "$variant" in
  asan)
    user_engine="${GODOT_ASAN:-}"; user_variable=GODOT_ASAN
    what="AddressSanitizer"
    variant_options=(use_asan=yes optimize=debug debug_symbols=yes ccflags=-gline-tables-only)
    ;;
  double)
    user_engine="${GODOT_DOUBLE:-}"; user_variable=GODOT_DOUBLE
    what="double-precision"
    variant_options=(precision=double)
    ;;
  *)
    echo "usage: scripts/provision-engine-build.sh asan|double [--check]" >&2
    exit 2
    ;;
esac

if [ -n "$user_engine" ]; then
  command -v "$user_engine" >/dev/null 2>&1 || { echo "$user_variable=$user_engine is not runnable" >&2; exit 1; }
  command -v "$user_engine"
  exit 0
fi

repo_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/debian-root.sh
. "$repo_dir/scripts/debian-root.sh"

machine_cache="${FVC_MACHINE_CACHE:-/var/cache/fast-variant-codec}"
cache="$machine_cache/godot-build"
# The build root of the first release of this script, which built the ASan engine only.
if [ ! -e "$cache" ] && [ -d "$machine_cache/godot-asan/root" ]; then
  mkdir -p "$cache"
  mv "$machine_cache/godot-asan/root" "$cache/root"
  rm -rf "$machine_cache/godot-asan"
fi
root="$cache/root"
wrapper="$cache/godot-$variant"
# The engine inside the root, where its libraries are.
engine_in_root="build/godot.editor.$variant"

if [ -x "$root/$engine_in_root" ]; then
  [ -x "$wrapper" ] || write_root_wrapper "$wrapper" "$root" "$engine_in_root"
  echo "$wrapper"
  exit 0
fi
if [ "$check_only" = 1 ]; then
  echo "no $what engine in $cache: build it once with scripts/provision-engine-build.sh $variant (an hour or more)"
  exit 1
fi
[ "$(id -u)" = 0 ] || { echo "building the $what engine needs root (chroot)" >&2; exit 1; }

llvm=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
[ -n "$llvm" ] || { echo "rustc does not say which LLVM it is built on" >&2; exit 1; }

started=$(date +%s)
mkdir -p "$cache"
# /proc in the root while it builds (the compilers and scons read it).
mounted=""
cleanup() { if [ -n "$mounted" ]; then umount "$root/proc" || true; fi; }
trap cleanup EXIT
mount_proc() {
  if [ -d "$root/proc" ] && ! mountpoint -q "$root/proc"; then
    mount -t proc proc "$root/proc"
    mounted=1
  fi
}
if [ ! -e "$root/.build-dependencies" ]; then
  echo "provisioning the build root $root (sid, Debian's build dependencies of godot, clang-$llvm)" >&2
  ensure_mmdebstrap
  mirror=$(debian_mirror)
  rm -rf "$root"
  mmdebstrap --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' \
    --include="dpkg-dev,ca-certificates,clang-$llvm,lld-$llvm,libclang-rt-$llvm-dev" \
    sid "$root" "deb $mirror sid main" "deb-src $mirror sid main" >&2
  chroot "$root" apt-get -o Acquire::Check-Valid-Until=false update >&2
  chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get build-dep -y godot >&2
  touch "$root/.build-dependencies"
fi
mount_proc

# The source: the package's upstream tarball (apt fails on the .dsc and Debian's part where
# the mirror does not serve them; the build needs neither: their two patches name the
# output file and make the docs' hash deterministic).
mkdir -p "$root/build/source"
chroot "$root" sh -c 'cd /build/source && apt-get source --download-only godot' >&2 || true
orig=$(ls "$root"/build/source/godot_*.orig.tar.xz 2>/dev/null | sort -V | tail -n 1)
[ -n "$orig" ] || { echo "apt-get source fetched no godot_*.orig.tar.xz" >&2; exit 1; }
version=$(basename "$orig" .orig.tar.xz)
version=${version#godot_}
tree="$root/build/godot-$version"
if [ ! -e "$tree/.unpacked" ]; then
  rm -rf "$tree" "$root/build/unpack"
  mkdir -p "$root/build/unpack"
  tar -C "$root/build/unpack" -xf "$orig"
  mv "$root/build/unpack"/* "$tree"
  rmdir "$root/build/unpack"
  # debian/rules: the build needs the certificates' path even with builtin_certs=no.
  install -D /dev/null "$tree/thirdparty/certs/ca-bundle.crt"
  touch "$tree/.unpacked"
fi

# debian/rules' SCONS_OPTIONS (system libraries), then what every build here shares, then
# the variant's own.
options=(
  platform=linuxbsd target=editor
  builtin_brotli=no builtin_certs=no system_certs_path=/etc/ssl/certs/ca-certificates.crt
  builtin_clipper2=yes builtin_embree=no builtin_enet=no builtin_freetype=no
  builtin_msdfgen=yes builtin_glslang=yes builtin_graphite=no builtin_harfbuzz=no
  builtin_icu4c=no static_icu_data=no builtin_libjpeg_turbo=no builtin_libogg=no
  builtin_libpng=no builtin_libtheora=no builtin_libvorbis=no builtin_libwebp=no
  builtin_wslay=no builtin_mbedtls=no builtin_miniupnpc=no builtin_openxr=no
  builtin_pcre2=no builtin_recastnavigation=no builtin_rvo2_2d=yes builtin_rvo2_3d=yes
  builtin_sdl=no builtin_xatlas=yes builtin_zlib=no builtin_zstd=no
  use_static_cpp=no use_sowrap=no engine_update_check=no
  use_llvm=yes "CC=clang-$llvm" "CXX=clang++-$llvm" linker=lld
  tests=no vulkan=no
  "${variant_options[@]}"
)
jobs=$(nproc)
echo "building the $what Godot $version in $tree (scons -j$jobs; an hour or more)" >&2
# The newest editor binary this build wrote: scons names it by the options' suffixes.
marker="$cache/.started-$variant"
touch "$marker"
chroot "$root" sh -c "cd /build/godot-$version && nice -n 10 scons --jobs=$jobs ${options[*]}" >&2
built=$(find "$tree/bin" -maxdepth 1 -name 'godot.linuxbsd.editor.*' -newer "$marker" -type f | head -n 1)
[ -n "$built" ] || { echo "scons wrote no editor binary under $tree/bin" >&2; exit 1; }
mv "$built" "$root/$engine_in_root"
rm -f "$marker"
write_root_wrapper "$wrapper" "$root" "$engine_in_root"
echo "built $root/$engine_in_root in $(($(date +%s) - started)) s" >&2
echo "$wrapper"
