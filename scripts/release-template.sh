#!/usr/bin/env bash
# Runs the bundled Godot project (godot_project/) in Godot 4.6.3's release export template:
# the engine as shipped games run it (no DEBUG_ENABLED), which the editor build never is.
#
#   scripts/release-template.sh [--without-library] [user args ...]
#
#   scripts/release-template.sh --run-tests [--suite=TEXT ...] [name-filter ...]   # the suites
#   scripts/release-template.sh --bench --out=/abs/bench.md [--runs=N ...]         # bench.gd
#   scripts/release-template.sh --shapes [--runs=N]                                # shapes.gd
#   scripts/release-template.sh --call-cost [--calls=N]                            # call_cost.gd
#   scripts/release-template.sh --memory --row=ROW --side=SIDE --call=CALL         # memory.gd
#
# The user args reach the project's main scene (test_runner.gd), which dispatches on them.
# Exit status: the template's (the export's when that fails).
#
# The template reads neither --path nor --script: it loads `<its executable's name>.pck`
# from its executable's directory, and finds the GDExtension library there too. So each
# run first builds a runner directory, .cache/godot/release/ (git-ignored, rebuilt every
# time; the addon must be built first, addons/fast_variant_codec/build.sh):
#   fvc-release-runner      the executable: a copy of the cached root's dynamic loader, which
#                           then runs the root's usr/bin/godot-template-release (so that
#                           /proc/self/exe is this file, checked below); or, with
#                           GODOT_TEMPLATE_RELEASE=/path/to/a/release/template, a copy of it
#   fvc-release-runner.pck  the project exported by the editor ($GODOT or the provisioned
#                           one) with the "Linux" preset of godot_project/export_presets.cfg
#   libfast_variant_codec.linux.x86_64.so   the built library, under the file name of the
#                           .gdextension's linux.release.x86_64 entry
# Never put a pack into the cached root itself: next to its loader it would be loaded by
# the editor as well.
#
# --without-library exports, instead, the copy of the project whose .gdextension lists no
# Linux library (scripts/project-without-library.sh unlisted), as an export to a platform
# the addon has no library for carries it, into .cache/godot/release-without-library/ with
# no library beside the runner: the GDScript fallback FastVariant then works through the
# engine's functions. What the export and the start print about the extension is there in
# export.log and the run's output (docs/PLATFORMS.md).
set -euo pipefail

repo_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root="$repo_dir/.cache/godot/root"
name=fvc-release-runner

fail() { echo "release-template.sh: $*" >&2; exit 1; }

editor=$("$repo_dir/scripts/provision-godot.sh")

without_library=false
if [ "${1:-}" = --without-library ]; then
  shift
  without_library=true
  project_dir=$("$repo_dir/scripts/project-without-library.sh" unlisted)
  run_dir="$repo_dir/.cache/godot/release-without-library"
  rm -rf "$run_dir"
  mkdir -p "$run_dir"
else
  project_dir="$repo_dir/godot_project"
  addon_dir="$repo_dir/addons/fast_variant_codec"
  run_dir="$repo_dir/.cache/godot/release"
  # The library, under the name the exported .gdextension asks for: the engine looks for a
  # library that is not in the pack next to the executable, by its file name.
  library_entry=$(sed -n 's/^linux\.release\.x86_64 *= *"\(.*\)"/\1/p' "$addon_dir/fast_variant_codec.gdextension")
  [ -n "$library_entry" ] || fail "no linux.release.x86_64 library in $addon_dir/fast_variant_codec.gdextension"
  library="$addon_dir/${library_entry#./}"
  [ -f "$library" ] || fail "no library at $library; run addons/fast_variant_codec/build.sh"
  rm -rf "$run_dir"
  mkdir -p "$run_dir"
  cp "$library" "$run_dir/$(basename "$library_entry")"
fi

if [ -n "${GODOT_TEMPLATE_RELEASE:-}" ]; then
  [ -x "$GODOT_TEMPLATE_RELEASE" ] || fail "GODOT_TEMPLATE_RELEASE=$GODOT_TEMPLATE_RELEASE is not executable"
  cp "$GODOT_TEMPLATE_RELEASE" "$run_dir/$name"
  runner=("$run_dir/$name")
else
  if [ ! -x "$root/usr/bin/godot-template-release" ]; then
    # $GODOT may name the editor, but the template comes from the cached root.
    GODOT='' "$repo_dir/scripts/provision-godot.sh" >/dev/null
  fi
  # The loader is a static executable: a copy runs from anywhere, and is /proc/self/exe.
  cp "$root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" "$run_dir/$name"
  L="$root/usr/lib/x86_64-linux-gnu"
  runner=("$run_dir/$name" --library-path "$L:$root/lib/x86_64-linux-gnu:$L/pulseaudio")
  exe=$("${runner[@]}" "$root/usr/bin/readlink" /proc/self/exe)
  # The kernel names the file by its real path (.cache may be a link).
  [ "$exe" = "$(readlink -f "$run_dir/$name")" ] || fail "/proc/self/exe is $exe, not $run_dir/$name: the pack would not be found"
  runner+=("$root/usr/bin/godot-template-release")
fi

# The export needs the imported project (.godot/extension_list.cfg, the class caches).
# Godot 4.6 can crash at the end of the first import that discovers the extension, after
# writing its files; a second one succeeds (as in run_tests.sh). So can the export.
export_log="$run_dir/export.log"
export_pack() {
  timeout 300 "$editor" --headless --path "$project_dir" --import >"$export_log" 2>&1 ||
    timeout 300 "$editor" --headless --path "$project_dir" --import >"$export_log" 2>&1 || return 1
  rm -f "$run_dir/export.pck"
  timeout 300 "$editor" --headless --path "$project_dir" --export-pack Linux "$run_dir/export.pck" >>"$export_log" 2>&1 &&
    [ -s "$run_dir/export.pck" ]
}
if ! export_pack && ! export_pack; then
  tail -n 40 "$export_log" >&2
  fail "exporting godot_project with the \"Linux\" preset failed (log: $export_log)"
fi
mv "$run_dir/export.pck" "$run_dir/$name.pck"
if $without_library; then
  echo "release-template.sh: what the export said of the GDExtension:" >&2
  grep -i -A1 "gdextension" "$export_log" >&2 || echo "  (nothing)" >&2
fi

cd "$run_dir"
exec "${runner[@]}" --headless -- "$@"
