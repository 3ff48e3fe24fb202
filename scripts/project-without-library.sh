#!/usr/bin/env bash
# Makes a copy of the bundled project (godot_project/) as a platform without the addon's
# library has it, for the tests of the GDScript fallback FastVariant, and prints its path:
#
#   scripts/project-without-library.sh removed    # .cache/projects/without-library:
#                                                 #   no .gdextension at all
#   scripts/project-without-library.sh unlisted   # .cache/projects/library-unlisted: a
#                                                 #   .gdextension that lists no Linux library
#
# `removed` is a project that never had the addon's library (the addon's scripts copied
# without it); `unlisted` is what an export to a platform the .gdextension has no entry
# for (Web, Android, iOS) carries: the .gdextension, and no library for it to load. Neither
# has the library in bin/. The copy is remade on every call (the addon's symlink followed),
# but for its .godot/ (the import cache, which the next import brings up to date).
set -euo pipefail

repo_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
case "${1:-}" in
  removed) name=without-library ;;
  unlisted) name=library-unlisted ;;
  *) echo "usage: $0 removed|unlisted" >&2; exit 2 ;;
esac
copy="$repo_dir/.cache/projects/$name"
addon="$copy/addons/fast_variant_codec"

mkdir -p "$copy"
find "$copy" -mindepth 1 -maxdepth 1 ! -name .godot -exec rm -rf {} +
tar -C "$repo_dir/godot_project" --exclude=./.godot -chf - . | tar -xf - -C "$copy"
rm -rf "$addon/bin"
if [ "$1" = removed ]; then
  rm -f "$addon"/*.gdextension "$addon"/*.gdextension.uid "$copy/.godot/extension_list.cfg"
else
  sed -i '/^linux\./d' "$addon/fast_variant_codec.gdextension"
  if grep -q '^linux\.' "$addon/fast_variant_codec.gdextension"; then
    echo "$0: the copy's .gdextension still lists a Linux library" >&2
    exit 1
  fi
fi
echo "$copy"
