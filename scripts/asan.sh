#!/usr/bin/env bash
# Runs suites of the bundled Godot project with the codec's library built with
# AddressSanitizer (-Zsanitizer=address): every load and store of the library, its reads
# of engine memory among them, checked against the blocks the process allocated.
#
#   scripts/asan.sh [--engine=GODOT] [--suite=TEXT ...] [name-filter ...]
#
# The engine:
# - with --engine, a Godot built with use_asan=yes by the clang of rustc's LLVM
#   (scripts/provision-engine-build.sh asan): the engine's own code is checked too, and its
#   runtime, linked into it, serves the library;
# - else the cached Godot 4.6.3 (scripts/provision-godot.sh), run with LLVM's ASan runtime
#   preloaded, so that every allocation of the engine gets the runtime's redzones and
#   freed blocks its quarantine, but the engine's own code is not instrumented.
#
# What it provisions, reused after: the library (target/asan) and a copy of the project
# with that library as the addon's (.cache/asan); for the plain engine also the runtime
# of the LLVM that rustc is built on (Debian's libclang-rt-N-dev, installed into the
# cached root; needs root the first time) and a shim that drops RTLD_DEEPBIND from dlopen
# (scripts/asan/nodeepbind.c, which the runtime requires; an ASan build of the engine
# does not ask for it). The binding's variables and the suites' FVC_* variables are
# passed on.
#
# Output: the runner's, then `asan: N reports`. Exit status 0 when every test passed and
# AddressSanitizer reported nothing.
set -euo pipefail

repo_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root="$repo_dir/.cache/godot/root"
cache="$repo_dir/.cache/asan"

fail() { echo "asan.sh: $*" >&2; exit 1; }

asan_engine=""
case "${1:-}" in
  --engine=*)
    asan_engine=${1#--engine=}
    shift
    ;;
esac

if [ -z "$asan_engine" ]; then
  llvm=$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')
  [ -n "$llvm" ] || fail "rustc does not say which LLVM it is built on"
  env -u GODOT "$repo_dir/scripts/provision-godot.sh" >/dev/null
  runtime="$root/usr/lib/llvm-$llvm/lib/clang/$llvm/lib/linux/libclang_rt.asan-x86_64.so"
  if [ ! -f "$runtime" ]; then
    [ "$(id -u)" = 0 ] || fail "installing libclang-rt-$llvm-dev into $root needs root"
    echo "asan.sh: installing libclang-rt-$llvm-dev into $root" >&2
    chroot "$root" apt-get -o Acquire::Check-Valid-Until=false update >&2
    chroot "$root" env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y --no-install-recommends "libclang-rt-$llvm-dev" >&2
  fi
  [ -f "$runtime" ] || fail "no AddressSanitizer runtime at $runtime"
fi

# The library: the toolchain's own std (not instrumented), every crate of the build
# instrumented; RUSTC_BOOTSTRAP for the -Z flag on a stable toolchain. A target given
# explicitly keeps the flags off build scripts and proc macros.
target=x86_64-unknown-linux-gnu
(
  cd "$repo_dir"
  RUSTC_BOOTSTRAP=1 \
    RUSTFLAGS="-Zsanitizer=address -Cunsafe-allow-abi-mismatch=sanitizer -Cforce-frame-pointers=yes" \
    cargo build --release -p fast-variant-codec --target "$target" --target-dir "$repo_dir/target/asan"
) >&2
library="$repo_dir/target/asan/$target/release/libfast_variant_codec.so"

mkdir -p "$cache"
if [ -n "$asan_engine" ]; then
  engine=("$asan_engine")
else
  cc -shared -fPIC -O2 -o "$cache/nodeepbind.so" "$repo_dir/scripts/asan/nodeepbind.c"
  lib="$root/usr/lib/x86_64-linux-gnu"
  # The shim before the runtime, so that the runtime's dlopen sees the flags without
  # RTLD_DEEPBIND.
  engine=("$root/lib64/ld-linux-x86-64.so.2" --preload "$cache/nodeepbind.so $runtime"
    --library-path "$lib:$root/lib/x86_64-linux-gnu:$lib/pulseaudio" "$root/usr/bin/godot")
fi
# Leaks are not checked (the engine keeps some blocks to its exit).
export ASAN_OPTIONS="detect_leaks=0:verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

project="$cache/project"
rm -rf "$project"
cp -rL "$repo_dir/godot_project" "$project"
rm -rf "$project/.godot"
cp "$library" "$project/addons/fast_variant_codec/bin/libfast_variant_codec.linux.x86_64.so"

# The import step writes .godot/extension_list.cfg, as in run_tests.sh (a first import
# that discovers the extension may crash at its end, after writing it).
import_project() { timeout 600 "${engine[@]}" --headless --path "$project" --import >/dev/null 2>&1; }
import_project || import_project || fail "the import step failed"

log="$cache/run.log"
set +e
timeout 2400 "${engine[@]}" --headless --path "$project" -- --run-tests "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

reports=$(grep -c "ERROR: AddressSanitizer" "$log" || true)
echo "asan: $reports reports"
[ "$reports" = 0 ] || exit 1
exit "$status"
