#!/usr/bin/env bash
# Usage: scripts/provision-godot3.sh 3.6|3.2
# Prints the path of a runnable headless Godot 3 binary (or wrapper), provisioning it when
# needed: 3.6 is Godot 3.6.2, 3.2 is Godot 3.2.3 (both Debian's `godot3-server`).
#
# Order: $GODOT_3_6 / $GODOT_3_2 if the user set it; else a cached root under .cache/
# (git-ignored), built the first time, reused after:
#   3.6  Debian sid's godot3-server, in the same root as Godot 4 (.cache/godot/root, made by
#        scripts/provision-godot.sh, which this script runs to make sure the root exists).
#   3.2  Debian bookworm's godot3-server (3.2.3-stable-1), in its own small root
#        (.cache/godot3.2/root, mmdebstrap, about 250 MB).
# Nothing is installed into the system: the engine is run through its root's own dynamic
# loader, so no chroot is needed. The binary's `--version` is checked before its path is
# printed.
set -euo pipefail

case "${1:-}" in
  3.6) override=${GODOT_3_6:-}; want=3.6.2 ;;
  3.2) override=${GODOT_3_2:-}; want=3.2.3 ;;
  *) echo "usage: $0 3.6|3.2" >&2; exit 2 ;;
esac

project_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/debian-root.sh
. "$project_dir/scripts/debian-root.sh"

# Prints $1 if its --version starts with $want, else fails.
check_version() {
  local version
  version=$("$1" --version 2>/dev/null | tail -n 1) || true
  case "$version" in
    "$want".*) echo "$1" ;;
    *) echo "$1 is not Godot $want (--version: '$version')" >&2; exit 1 ;;
  esac
}

if [ -n "$override" ]; then
  command -v "$override" >/dev/null 2>&1 || { echo "GODOT_3_${1#3.}=$override is not runnable" >&2; exit 1; }
  check_version "$(command -v "$override")"
  exit 0
fi


if [ "$1" = 3.6 ]; then
  # The Godot 4 root holds godot3-server too (provision-godot.sh includes it).
  GODOT= bash "$project_dir/scripts/provision-godot.sh" >/dev/null
  cache_dir="$project_dir/.cache/godot"
  root="$cache_dir/root"
  wrapper="$cache_dir/godot3.6"
  if [ ! -x "$root/usr/bin/godot3-server" ]; then
    echo "$root has no usr/bin/godot3-server; remove $root and run this again" >&2
    exit 1
  fi
  [ -x "$wrapper" ] || write_root_wrapper "$wrapper" "$root" usr/bin/godot3-server
  check_version "$wrapper"
  exit 0
fi

cache_dir="$project_dir/.cache/godot3.2"
root="$cache_dir/root"
wrapper="$cache_dir/godot3.2"
if [ ! -x "$root/usr/bin/godot3-server" ]; then
  echo "provisioning Godot 3.2.3 into $root (about 20 s, ~250 MB)" >&2
  ensure_mmdebstrap
  mkdir -p "$cache_dir"
  rm -rf "$root.partial"
  mmdebstrap --variant=apt --include=godot3-server \
    bookworm "$root.partial" "$(debian_mirror)" >&2
  rm -rf "$root"
  mv "$root.partial" "$root"
  rm -f "$wrapper"
fi
[ -x "$wrapper" ] || write_root_wrapper "$wrapper" "$root" usr/bin/godot3-server
check_version "$wrapper"
