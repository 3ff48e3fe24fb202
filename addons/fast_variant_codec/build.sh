#!/usr/bin/env bash
# Builds the FastVariantCodec library for Linux x86_64, for development, and puts it where
# fast_variant_codec.gdextension looks for it (bin/libfast_variant_codec.linux.x86_64.so).
# The release zip with every platform: cargo xtask package (docs/PLATFORMS.md).
#
#   addons/fast_variant_codec/build.sh           # release build (what to ship and test)
#   addons/fast_variant_codec/build.sh --debug   # debug build, for working on the crate
#   addons/fast_variant_codec/build.sh --double  # release build for double-precision engines
#   addons/fast_variant_codec/build.sh --double-api  # prints the double-precision API description
#
# --double builds bin/libfast_variant_codec.linux.x86_64.double.so, which the
# .gdextension's `double` entries name, for engines built with `precision=double`. gdext
# generates such a binding only from the engine's own API description: the script dumps it
# (`--dump-extension-api`) from $GODOT_DOUBLE, else from the engine that
# scripts/provision-engine-build.sh double has built (it does not build one: that takes an
# hour or more). --double-api dumps it alone, when missing or older than the engine, and
# prints its path: `cargo xtask package` builds every platform's double-precision library
# from it (one API description serves every OS and architecture: it describes the engine's
# API, not a binary).
set -euo pipefail

addon_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(cd "$addon_dir/../.." && pwd)

profile=release
double=0
case "${1:-}" in
  "") ;;
  --debug) profile=debug ;;
  --double) double=1 ;;
  --double-api) double=api ;;
  *) echo "usage: $0 [--debug | --double | --double-api]" >&2; exit 2 ;;
esac

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "build.sh builds on Linux x86_64 only; cargo xtask package cross-builds Windows and arm64 (docs/PLATFORMS.md)" >&2
  exit 2
fi

cd "$repo_dir"
target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
mkdir -p "$addon_dir/bin"

# The double-precision engine's extension_api.json in target/double/api, dumped again when
# the engine is newer; prints its path.
double_api() {
  local engine json
  engine=$("$repo_dir/scripts/provision-engine-build.sh" double --check) || {
    echo "build.sh $1: $engine" >&2
    return 1
  }
  mkdir -p "$double_dir/api"
  json="$double_dir/api/extension_api.json"
  if [ ! -s "$json" ] || [ "$(readlink -f "$engine")" -nt "$json" ]; then
    (cd "$double_dir/api" && "$engine" --headless --dump-extension-api >/dev/null 2>&1) || true
    [ -s "$json" ] || { echo "build.sh $1: $engine wrote no extension_api.json" >&2; return 1; }
  fi
  echo "$json"
}

# Its own target directory: the features differ, and would rebuild the other library.
double_dir="$target_dir/double"

if [ "$double" = api ]; then
  double_api --double-api
  exit 0
fi

if [ "$double" = 1 ]; then
  json=$(double_api --double)
  GDRUST_GODOT_API_JSON="$json" CARGO_TARGET_DIR="$double_dir" cargo build --release \
    -p fast-variant-codec --no-default-features --features double-precision
  cp "$double_dir/release/libfast_variant_codec.so" "$addon_dir/bin/.libfast_variant_codec.tmp"
  mv "$addon_dir/bin/.libfast_variant_codec.tmp" "$addon_dir/bin/libfast_variant_codec.linux.x86_64.double.so"
  echo "installed the double-precision build in $addon_dir/bin/libfast_variant_codec.linux.x86_64.double.so"
  exit 0
fi

if [ "$profile" = release ]; then
  cargo build --release -p fast-variant-codec
else
  cargo build -p fast-variant-codec
fi

# Copy to a temporary name and rename: a running Godot keeps the old file mapped.
cp "$target_dir/$profile/libfast_variant_codec.so" "$addon_dir/bin/.libfast_variant_codec.tmp"
mv "$addon_dir/bin/.libfast_variant_codec.tmp" "$addon_dir/bin/libfast_variant_codec.linux.x86_64.so"
echo "installed $profile build in $addon_dir/bin/libfast_variant_codec.linux.x86_64.so"
