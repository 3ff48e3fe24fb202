#!/usr/bin/env bash
# Runs the Godot test suites (godot_project/tests/test_*.gd) against the built addon.
# Exit status 0 when every test passed; the last line of the output is "N passed, N failed".
#
#   GODOT=/path/to/godot-4.6 godot_project/run_tests.sh [--release-template] [--without-library]
#       [--suite=TEXT ...] [name-filter ...]
#
# GODOT unset: scripts/provision-godot.sh finds (or fetches) one (on Linux). The library
# must be built first: addons/fast_variant_codec/build.sh, or, on a Mac, the release zip
# unpacked at the repository's root (docs/PLATFORMS.md). A name filter selects the tests whose
# name contains it, --suite=TEXT the suite files whose name contains TEXT
# (test_runner/test_runner.gd). --release-template runs the suites in Godot's release
# export template instead of the editor build: scripts/release-template.sh exports the
# project and runs it. --without-library runs them where the addon has no library, for the
# GDScript fallback FastVariant (with FVC_CODEC=FastVariant, see test_runner/test_runner.gd):
# in the editor build, a copy of the project without the .gdextension; in the release
# template, the project exported with a .gdextension that lists no Linux library
# (scripts/project-without-library.sh). The binding reads FAST_VARIANT_CODEC_ENGINE_LAYOUT and
# FAST_VARIANT_CODEC_FAILED_PROBES from the environment, which this passes on.
set -euo pipefail

project_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(cd "$project_dir/.." && pwd)
bin="$project_dir/addons/fast_variant_codec/bin"
if [ "$(uname -s)" = Darwin ]; then
  [ -n "${GODOT:-}" ] || { echo "run_tests.sh: set GODOT, e.g. GODOT=/Applications/Godot.app/Contents/MacOS/Godot" >&2; exit 1; }
  library="$bin/libfast_variant_codec.macos.universal.dylib"
  build_hint="unpack the release zip at the repository's root"
else
  library="$bin/libfast_variant_codec.linux.x86_64.so"
  build_hint="run addons/fast_variant_codec/build.sh"
fi
godot=${GODOT:-$("$repo_dir/scripts/provision-godot.sh")}

release_template=false
without_library=false
while [ "${1:-}" = --release-template ] || [ "${1:-}" = --without-library ]; do
  [ "$1" = --release-template ] && release_template=true
  [ "$1" = --without-library ] && without_library=true
  shift
done

# What the run has, for the suites to check (test_fallback.gd).
export FVC_LIBRARY=present
$without_library && FVC_LIBRARY=absent

if ! $without_library && [ ! -f "$library" ]; then
  echo "run_tests.sh: no library at $library; $build_hint" >&2
  exit 1
fi
# macOS has no `timeout` unless coreutils are installed: the runs are then unbounded.
limit() {
  if command -v timeout >/dev/null 2>&1; then timeout "$@"; else shift; "$@"; fi
}

run_log=$(mktemp)
import_log=$(mktemp)
trap 'rm -f "$import_log" "$run_log"' EXIT

if $release_template; then
  # The script imports and exports the project itself.
  template_args=()
  $without_library && template_args=(--without-library)
  run=(env GODOT="$godot" "$repo_dir/scripts/release-template.sh" "${template_args[@]}" --run-tests "$@")
else
  if $without_library; then
    project_dir=$("$repo_dir/scripts/project-without-library.sh" removed)
  fi
  # The import step writes .godot/extension_list.cfg, without which Godot loads no extension.
  # Godot 4.6 can crash at the end of the first headless import that discovers the
  # extension (its files are written by then); a second import finds them and exits cleanly.
  import_project() { limit 300 "$godot" --headless --path "$project_dir" --import >"$import_log" 2>&1; }
  if ! import_project && ! import_project; then
    cat "$import_log" >&2
    echo "run_tests.sh: the import step failed" >&2
    exit 1
  fi
  run=("$godot" --headless --path "$project_dir" -- --run-tests "$@")
fi

set +e
limit 900 "${run[@]}" 2>&1 | tee "$run_log"
status=${PIPESTATUS[0]}
set -e

if [ "$status" = 124 ]; then
  echo "run_tests.sh: the run timed out" >&2
elif [ "$status" = 0 ] && grep -q "SCRIPT ERROR" "$run_log"; then
  # The runner counts script errors itself; this catches any it could not see.
  echo "run_tests.sh: SCRIPT ERROR in the output although the runner passed" >&2
  status=1
fi
exit "$status"
