#!/usr/bin/env bash
# Provisions what `cargo xtask package` needs to build and check the Windows x86_64, Linux
# arm64 and macOS libraries, all into .cache/ (git-ignored), and prints the path asked for:
#
#   scripts/provision-cross.sh toolchains   # prints .cache/cross
#   scripts/provision-cross.sh wine         # prints .cache/wine/root
#   scripts/provision-cross.sh godot-arm64  # prints .cache/godot-arm64/godot (a wrapper)
#   scripts/provision-cross.sh apple        # prints .cache/cross (zig/, rcodesign/ in it)
#
# toolchains: Debian's cross compilers (gcc-mingw-w64-x86-64-posix, gcc-aarch64-linux-gnu,
#   their binutils and C libraries) and qemu-user-static, of this machine's Debian release,
#   downloaded with a private apt configuration (.cache/cross/apt: its own sources list,
#   lists, cache and empty dpkg status; the system's apt is neither read nor changed) and
#   unpacked with dpkg -x into .cache/cross/root; wrappers named as the tools in
#   .cache/cross/bin. Then Rust's standard library source for -Zbuild-std: the toolchain's
#   own rust-src component if it has one, else Debian's rust-src of exactly the toolchain's
#   version (from trixie-backports) in .cache/cross/rust-src/VERSION, and .cache/cross/rustc,
#   a wrapper that runs the toolchain's rustc with --sysroot .cache/cross/sysroot (that
#   source, and the toolchain's own host libraries by symbolic link). The toolchain
#   (rustup's, or $RUSTC) is not changed.
# wine: a Debian sid root with Wine 10 (bookworm's Wine 8 cannot load a Rust DLL: it has no
#   bcryptprimitives.dll), made by mmdebstrap; run in a chroot of it (see package.rs).
# apple: what the macOS library is built and signed with, all at pinned versions. Zig (the
#   ziglang package, whose linker and macOS system-library stubs link Mach-O) and
#   cargo-zigbuild (which makes Zig cargo's linker) from PyPI, installed with pip --target
#   into .cache/cross/zig; rcodesign (the apple-codesign crate, Apple code signing in pure
#   Rust: universal files, ad-hoc signatures, verification) from crates.io, built with the
#   machine's cargo into .cache/cross/rcodesign (about 15 minutes, once).
# godot-arm64: Debian sid's arm64 Godot in an extract-variant root (no maintainer scripts
#   run, so no emulation is needed to make it), plus the merged-usr links that variant does
#   not make, and a wrapper running it under qemu-aarch64-static.
set -euo pipefail

project_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache_dir="$project_dir/.cache"
# shellcheck source=scripts/debian-root.sh
. "$project_dir/scripts/debian-root.sh"
mirror=$(debian_mirror)
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

fail() { echo "provision-cross.sh: $*" >&2; exit 1; }

# The Debian release of this machine, whose cross compilers run on its libraries.
host_release() {
  local id="" codename=""
  if [ -r /etc/os-release ]; then
    id=$(. /etc/os-release && echo "${ID:-}")
    codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  fi
  [ "$id" = debian ] && [ -n "$codename" ] ||
    fail "the cross toolchains come from Debian's packages of this machine's release; this is not Debian (ID=$id)"
  echo "$codename"
}

# --- the private apt configuration ------------------------------------------------------

apt_dir="$cache_dir/cross/apt"

private_apt() {
  local release=$1
  mkdir -p "$apt_dir"/{lists/partial,archives/partial,parts,preferences.d,sources.d}
  : >"$apt_dir/status"
  cat >"$apt_dir/sources.list" <<EOF
deb [signed-by=$keyring] $mirror $release main
deb [signed-by=$keyring] $mirror trixie-backports main
EOF
  cat >"$apt_dir/apt.conf" <<EOF
Dir::Etc::main "$apt_dir/apt.conf";
Dir::Etc::Parts "$apt_dir/parts";
Dir::Etc::SourceList "$apt_dir/sources.list";
Dir::Etc::SourceParts "$apt_dir/sources.d";
Dir::Etc::Preferences "$apt_dir/preferences";
Dir::Etc::PreferencesParts "$apt_dir/preferences.d";
Dir::State "$apt_dir";
Dir::State::Lists "$apt_dir/lists";
Dir::State::status "$apt_dir/status";
Dir::Cache "$apt_dir";
Dir::Cache::archives "$apt_dir/archives";
Debug::NoLocking "true";
APT::Sandbox::User "root";
Acquire::Check-Valid-Until "false";
APT::Architecture "amd64";
APT::Architectures { "amd64"; };
EOF
  # The lists are refreshed at most once a day.
  if [ -z "$(find "$apt_dir/lists" -maxdepth 1 -name '*Packages*' -mtime -1 2>/dev/null)" ]; then
    APT_CONFIG="$apt_dir/apt.conf" apt-get update >&2 || fail "apt-get update (private configuration $apt_dir/apt.conf) failed"
  fi
}

apt_private() { APT_CONFIG="$apt_dir/apt.conf" "$@"; }

# Downloads the packages named (pkg/release or pkg=version) into $apt_dir/archives and
# unpacks each into $1.
download_and_unpack() {
  local into=$1; shift
  local downloads="$apt_dir/archives/download"
  rm -rf "$downloads"
  mkdir -p "$downloads" "$into"
  (cd "$downloads" && apt_private apt-get download "$@" >&2) || fail "apt-get download $* failed"
  local deb
  for deb in "$downloads"/*.deb; do
    dpkg -x "$deb" "$into"
  done
  rm -rf "$downloads"
}

# --- toolchains ---------------------------------------------------------------------------

# The cross compilers and emulator, from the machine's own release (so that they run on its
# libraries). Changing this list provisions the root again.
TOOLCHAIN_PACKAGES=(
  gcc-mingw-w64-x86-64-posix gcc-mingw-w64-x86-64-posix-runtime gcc-mingw-w64-base
  binutils-mingw-w64-x86-64 mingw-w64-x86-64-dev mingw-w64-common
  gcc-12-aarch64-linux-gnu cpp-12-aarch64-linux-gnu binutils-aarch64-linux-gnu
  libc6-dev-arm64-cross libc6-arm64-cross linux-libc-dev-arm64-cross
  libgcc-12-dev-arm64-cross libgcc-s1-arm64-cross
  qemu-user-static
)

# A wrapper in bin/ for each tool of the root: the aarch64 binutils need their own libraries
# (LD_LIBRARY_PATH), the aarch64 compiler the root as sysroot (its libc.so names
# /usr/aarch64-linux-gnu/...), and the mingw compiler is named ...-gcc-posix there (Debian
# picks the name with alternatives, which dpkg -x does not run).
write_tool_wrappers() {
  local cross=$1 root=$1/root bin=$1/bin tool name target extra
  rm -rf "$bin"
  mkdir -p "$bin"
  for tool in "$root"/usr/bin/x86_64-w64-mingw32-* "$root"/usr/bin/aarch64-linux-gnu-*; do
    name=$(basename "$tool")
    target=$tool
    extra=""
    case $name in
      x86_64-w64-mingw32-*-posix) name=${name%-posix} ;;
      x86_64-w64-mingw32-*-win32 | *-[0-9]*) continue ;;
      aarch64-linux-gnu-gcc) extra="--sysroot=$root" ;;
    esac
    cat >"$bin/$name" <<EOF
#!/bin/sh
LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$target" $extra "\$@"
EOF
    chmod +x "$bin/$name"
  done
  # The versioned aarch64 compiler is the one there is (gcc-aarch64-linux-gnu only links it).
  if [ ! -e "$bin/aarch64-linux-gnu-gcc" ]; then
    cat >"$bin/aarch64-linux-gnu-gcc" <<EOF
#!/bin/sh
LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" exec "$root/usr/bin/aarch64-linux-gnu-gcc-12" --sysroot="$root" "\$@"
EOF
    chmod +x "$bin/aarch64-linux-gnu-gcc"
  fi
  ln -sfn "$root/usr/bin/qemu-aarch64-static" "$bin/qemu-aarch64"
}

provision_toolchains() {
  local cross="$cache_dir/cross" release stamp want
  release=$(host_release)
  want="$release ${TOOLCHAIN_PACKAGES[*]}"
  stamp="$cross/root/.provisioned"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    echo "provisioning cross toolchains into $cross/root (Debian $release: mingw-w64, aarch64 gcc, qemu-user-static; ~1.2 GB)" >&2
    private_apt "$release"
    rm -rf "$cross/root.partial"
    download_and_unpack "$cross/root.partial" "${TOOLCHAIN_PACKAGES[@]/%//$release}"
    rm -rf "$cross/root"
    mv "$cross/root.partial" "$cross/root"
    echo "$want" >"$stamp"
  fi
  write_tool_wrappers "$cross"
  local tool
  for tool in x86_64-w64-mingw32-gcc x86_64-w64-mingw32-objdump aarch64-linux-gnu-gcc aarch64-linux-gnu-objdump; do
    "$cross/bin/$tool" --version >/dev/null 2>&1 || fail "$cross/bin/$tool does not run"
  done
  "$cross/bin/qemu-aarch64" --version >/dev/null || fail "$cross/bin/qemu-aarch64 does not run"
  provision_rust_src "$cross"
  echo "$cross"
}

# The standard library's source for -Zbuild-std, of exactly the toolchain's version, and
# the rustc wrapper whose --sysroot makes cargo find it ($SYSROOT/lib/rustlib/src/rust/
# library is where cargo looks). This is rustc's documented --sysroot and cargo's RUSTC;
# the alternative, cargo's internal __CARGO_TESTS_ONLY_SRC_ROOT, is for cargo's own tests.
provision_rust_src() {
  local cross=$1 rustc=${RUSTC:-rustc} sysroot version real src
  sysroot=$("$rustc" --print sysroot) || fail "cannot run $rustc"
  real="$sysroot/bin/rustc"
  [ -x "$real" ] || real=$(command -v "$rustc")
  version=$("$rustc" --version | awk '{print $2}')
  local host
  host=$("$rustc" -vV | sed -n 's/^host: //p')
  if [ -f "$sysroot/lib/rustlib/src/rust/library/Cargo.lock" ]; then
    src="$sysroot/lib/rustlib/src/rust"
  else
    src="$cross/rust-src/$version/usr/lib/rustlib/src/rust"
    if [ ! -f "$src/library/Cargo.lock" ]; then
      private_apt "$(host_release)"
      local debian_version
      debian_version=$(apt_private apt-cache madison rust-src | awk -F' *[|] *' '{print $2}' |
        grep -m1 "^${version//./\\.}+" || true)
      if [ -z "$debian_version" ]; then
        fail "rustc is $version, and Debian has no rust-src of that version (trixie-backports has: $(apt_private apt-cache madison rust-src | awk -F' *[|] *' '{print $2}' | cut -d+ -f1 | sort -uV | tr '\n' ' ')).
  -Zbuild-std needs the standard library's source of exactly the compiler's version: install the
  toolchain's own (rustup component add rust-src), or use a rustc of one of those versions."
      fi
      echo "provisioning rust-src $debian_version into $cross/rust-src/$version" >&2
      rm -rf "$cross/rust-src/$version.partial"
      download_and_unpack "$cross/rust-src/$version.partial" "rust-src=$debian_version"
      rm -rf "$cross/rust-src/$version"
      mv "$cross/rust-src/$version.partial" "$cross/rust-src/$version"
      [ -f "$src/library/Cargo.lock" ] || fail "Debian's rust-src $debian_version has no library/Cargo.lock"
    fi
  fi
  # A sysroot of the toolchain's host libraries (build scripts and proc-macros use them)
  # and that source; made anew each time, for the toolchain in use now.
  rm -rf "$cross/sysroot"
  mkdir -p "$cross/sysroot/lib/rustlib/src"
  ln -s "$sysroot/lib/rustlib/$host" "$cross/sysroot/lib/rustlib/$host"
  ln -s "$src" "$cross/sysroot/lib/rustlib/src/rust"
  cat >"$cross/rustc" <<EOF
#!/bin/sh
# rustc $version ($real) with the standard library source of .cache/cross/sysroot.
exec "$real" --sysroot "$cross/sysroot" "\$@"
EOF
  chmod +x "$cross/rustc"
}

# --- apple ------------------------------------------------------------------------------------

ZIGLANG_VERSION=0.17.1
CARGO_ZIGBUILD_VERSION=0.24.0
APPLE_CODESIGN_VERSION=0.29.0

provision_apple() {
  local cross="$cache_dir/cross" want
  want="ziglang==$ZIGLANG_VERSION cargo-zigbuild==$CARGO_ZIGBUILD_VERSION"
  if [ "$(cat "$cross/zig/.provisioned" 2>/dev/null)" != "$want" ]; then
    echo "provisioning $want into $cross/zig (pip, ~50 MB)" >&2
    rm -rf "$cross/zig.partial"
    # shellcheck disable=SC2086 # $want is the two requirements.
    python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location \
      --target "$cross/zig.partial" $want >&2 || fail "pip install $want failed"
    rm -rf "$cross/zig"
    mv "$cross/zig.partial" "$cross/zig"
    echo "$want" >"$cross/zig/.provisioned"
  fi
  [ "$("$cross/zig/ziglang/zig" version)" = "$ZIGLANG_VERSION" ] || fail "$cross/zig/ziglang/zig does not run"
  "$cross/zig/bin/cargo-zigbuild" --version >/dev/null || fail "$cross/zig/bin/cargo-zigbuild does not run"

  local rcodesign="$cross/rcodesign/bin/rcodesign"
  if [ "$("$rcodesign" --version 2>/dev/null)" != "apple-codesign $APPLE_CODESIGN_VERSION" ]; then
    echo "building rcodesign (apple-codesign $APPLE_CODESIGN_VERSION) into $cross/rcodesign (about 15 minutes)" >&2
    # Without the default notarize feature (AWS and App Store Connect clients): signing and
    # verifying need none of it.
    nice -n 19 "${CARGO:-cargo}" install --quiet --locked --no-default-features \
      --version "$APPLE_CODESIGN_VERSION" --root "$cross/rcodesign" apple-codesign >&2 ||
      fail "cargo install apple-codesign $APPLE_CODESIGN_VERSION failed"
  fi
  "$rcodesign" --version >/dev/null || fail "$rcodesign does not run"
  echo "$cross"
}

# --- roots made by mmdebstrap ---------------------------------------------------------------

# mmdebstrap ARGS... ROOT: makes ROOT from sid, replacing the old one only once complete.
make_root() {
  local root=${*: -1}
  if ! command -v mmdebstrap >/dev/null 2>&1; then
    apt-get update -o Acquire::Check-Valid-Until=false >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y mmdebstrap >&2
  fi
  mkdir -p "$(dirname "$root")"
  rm -rf "$root.partial"
  nice -n 19 mmdebstrap --aptopt='Acquire::Check-Valid-Until "false"' "${@:1:$#-1}" sid "$root.partial" "$mirror" >&2 ||
    fail "mmdebstrap ${*:1:$#-1} sid $root failed"
  rm -rf "$root"
  mv "$root.partial" "$root"
}

provision_wine() {
  local root="$cache_dir/wine/root"
  # usr/bin/wine is a link to /etc/alternatives/wine, which resolves inside the root only:
  # the link itself tells that the root was made (make_root moves it in place when whole).
  if [ ! -L "$root/usr/bin/wine" ] && [ ! -e "$root/usr/bin/wine" ]; then
    echo "provisioning Wine 10 (Debian sid) into $root (about two minutes, ~1.6 GB; its first run adds a 1.2 GB prefix)" >&2
    make_root --variant=apt --include=wine,wine64 "$root"
  fi
  echo "$root"
}

provision_godot_arm64() {
  local dir="$cache_dir/godot-arm64" root="$cache_dir/godot-arm64/root" cross link
  cross=$(provision_toolchains)
  if [ ! -x "$root/usr/bin/godot" ]; then
    echo "provisioning Debian sid's arm64 Godot into $root (~500 MB)" >&2
    make_root --variant=extract --architectures=arm64 --include=godot "$root"
    for link in lib bin sbin; do
      [ -e "$root/$link" ] || ln -s "usr/$link" "$root/$link"
    done
  fi
  cat >"$dir/godot" <<EOF
#!/bin/sh
# Debian's arm64 Godot under qemu-user: -L makes the root the prefix of the paths it opens.
exec "$cross/bin/qemu-aarch64" -L "$root" "$root/usr/bin/godot" "\$@"
EOF
  chmod +x "$dir/godot"
  echo "$dir/godot"
}

case "${1:-}" in
  toolchains) provision_toolchains ;;
  wine) provision_wine ;;
  godot-arm64) provision_godot_arm64 ;;
  apple) provision_apple ;;
  *) echo "usage: $0 toolchains|wine|godot-arm64|apple" >&2; exit 2 ;;
esac
