#!/usr/bin/env bash
# Builds the FastVariantCodec library for Linux x86_64, for development, and puts it where
# fast_variant_codec.gdextension looks for it (bin/libfast_variant_codec.linux.x86_64.so).
# The release zip with every platform: cargo xtask package (docs/PLATFORMS.md).
#
#   addons/fast_variant_codec/build.sh           # release build (what to ship and test)
#   addons/fast_variant_codec/build.sh --debug   # debug build, for working on the crate
set -euo pipefail

addon_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(cd "$addon_dir/../.." && pwd)

profile=release
case "${1:-}" in
  "") ;;
  --debug) profile=debug ;;
  *) echo "usage: $0 [--debug]" >&2; exit 2 ;;
esac

if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "build.sh builds on Linux x86_64 only; cargo xtask package cross-builds Windows and arm64 (docs/PLATFORMS.md)" >&2
  exit 2
fi

cd "$repo_dir"
if [ "$profile" = release ]; then
  cargo build --release -p fast-variant-codec
else
  cargo build -p fast-variant-codec
fi

target_dir=$(cargo metadata --format-version 1 --no-deps |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
mkdir -p "$addon_dir/bin"
# Copy to a temporary name and rename: a running Godot keeps the old file mapped.
cp "$target_dir/$profile/libfast_variant_codec.so" "$addon_dir/bin/.libfast_variant_codec.tmp"
mv "$addon_dir/bin/.libfast_variant_codec.tmp" "$addon_dir/bin/libfast_variant_codec.linux.x86_64.so"
echo "installed $profile build in $addon_dir/bin/libfast_variant_codec.linux.x86_64.so"
