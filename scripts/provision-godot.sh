#!/usr/bin/env bash
# Prints the path of a runnable Godot 4.6.3 binary (or wrapper), provisioning it when needed.
#
# Order: $GODOT if the user set it; else a cached root under .cache/godot (git-ignored),
# built with mmdebstrap from Debian sid's `godot` package the first time, reused after.
# The engine is run through the root's own dynamic loader, so no chroot is needed.
# The root also holds the release export template (usr/bin/godot-template-release, which
# scripts/release-template.sh runs) and godot3-server; a root without the template, made
# before it was included, is provisioned again.
set -euo pipefail

if [ -n "${GODOT:-}" ]; then
  command -v "$GODOT" >/dev/null 2>&1 || { echo "GODOT=$GODOT is not runnable" >&2; exit 1; }
  command -v "$GODOT"
  exit 0
fi

project_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache_dir="$project_dir/.cache/godot"
root="$cache_dir/root"
wrapper="$cache_dir/godot"
# shellcheck source=scripts/debian-root.sh
. "$project_dir/scripts/debian-root.sh"

if [ -x "$root/usr/bin/godot" ] && [ -x "$root/usr/bin/godot-template-release" ]; then
  [ -x "$wrapper" ] || write_root_wrapper "$wrapper" "$root" usr/bin/godot
  echo "$wrapper"
  exit 0
fi

echo "provisioning Godot 4 into $root (about a minute, ~650 MB)" >&2
ensure_mmdebstrap
mkdir -p "$cache_dir"
rm -rf "$root.partial"
mmdebstrap --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' --include=godot,godot-template-release,godot3-server \
  sid "$root.partial" "$(debian_mirror)" >&2
# A stale root (no template) is replaced only once the new one is complete.
if [ -e "$root" ]; then
  rm -rf "$root.old"
  mv "$root" "$root.old"
fi
mv "$root.partial" "$root"
rm -rf "$root.old"
write_root_wrapper "$wrapper" "$root" usr/bin/godot
echo "$wrapper"
