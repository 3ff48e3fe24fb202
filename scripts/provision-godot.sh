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

write_wrapper() {
  cat >"$wrapper" <<WRAP
#!/usr/bin/env bash
# Runs Debian's Godot from the cached root through that root's loader.
L="$root/usr/lib/x86_64-linux-gnu"
exec "$root/lib64/ld-linux-x86-64.so.2" --library-path "\$L:$root/lib/x86_64-linux-gnu:\$L/pulseaudio" "$root/usr/bin/godot" "\$@"
WRAP
  chmod +x "$wrapper"
}

if [ -x "$root/usr/bin/godot" ] && [ -x "$root/usr/bin/godot-template-release" ]; then
  [ -x "$wrapper" ] || write_wrapper
  echo "$wrapper"
  exit 0
fi

echo "provisioning Godot 4 into $root (about a minute, ~650 MB)" >&2
if ! command -v mmdebstrap >/dev/null 2>&1; then
  apt-get update -o Acquire::Check-Valid-Until=false >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y mmdebstrap >&2
fi
mkdir -p "$cache_dir"
rm -rf "$root.partial"
mmdebstrap --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' --include=godot,godot-template-release,godot3-server \
  sid "$root.partial" http://deb.debian.org/debian >&2
# A stale root (no template) is replaced only once the new one is complete.
if [ -e "$root" ]; then
  rm -rf "$root.old"
  mv "$root" "$root.old"
fi
mv "$root.partial" "$root"
rm -rf "$root.old"
write_wrapper
echo "$wrapper"
