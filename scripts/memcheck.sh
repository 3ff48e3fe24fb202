#!/usr/bin/env bash
# Runs suites of the bundled Godot project under Valgrind's Memcheck: every read and write
# of the engine and of the codec's library (its reads of engine memory included) checked
# against what the process has allocated and initialized. A read of freed memory, past a
# block, or of memory never written is an error.
#
#   scripts/memcheck.sh [--suite=TEXT ...] [name-filter ...]
#
# The engine is the cached Godot 4.6.3 root's (scripts/provision-godot.sh; a GODOT the user
# set is not used: Memcheck needs the symbols of that root's C library, from its libc6-dbg,
# which it finds only when run inside the root). Valgrind and libc6-dbg are installed into
# the root the first time, from the archive the root was made from. Each run copies the
# project (with the built addon: addons/fast_variant_codec/build.sh first) into the root
# and runs it in a chroot, with /proc mounted for the run. The binding's variables and the
# suites' FVC_* variables are passed on.
#
# Output: the runner's, then `memcheck: N errors` (and the first errors in full). Exit
# status 0 when every test passed and Memcheck reported no error.
set -euo pipefail

repo_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
root="$repo_dir/.cache/godot/root"
project="/fvc-memcheck"
log="/fvc-memcheck.log"

fail() { echo "memcheck.sh: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "needs root (it runs the engine in a chroot of the cached root)"
library="$repo_dir/addons/fast_variant_codec/bin/libfast_variant_codec.linux.x86_64.so"
[ -f "$library" ] || fail "no library at $library; run addons/fast_variant_codec/build.sh"
env -u GODOT "$repo_dir/scripts/provision-godot.sh" >/dev/null

if [ ! -x "$root/usr/bin/valgrind" ] || [ ! -d "$root/usr/lib/debug/.build-id" ]; then
  echo "memcheck.sh: installing valgrind and libc6-dbg into $root" >&2
  chroot "$root" apt-get -o Acquire::Check-Valid-Until=false update >&2
  chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y valgrind libc6-dbg >&2
fi

rm -rf "${root:?}$project" "${root:?}$log"
cp -rL "$repo_dir/godot_project" "$root$project"
rm -rf "$root$project/.godot"

mounted=""
cleanup() {
  if [ -n "$mounted" ]; then umount "$root/proc" || true; fi
  rm -rf "${root:?}$project"
}
trap cleanup EXIT
if ! mountpoint -q "$root/proc"; then
  mount -t proc proc "$root/proc"
  mounted=1
fi

# The import step writes .godot/extension_list.cfg, without which Godot loads no extension
# (run_tests.sh does the same; a first import that discovers the extension may crash at
# its end, after writing it).
import_project() { timeout 300 chroot "$root" /usr/bin/godot --headless --path "$project" --import >/dev/null 2>&1; }
import_project || import_project || fail "the import step failed"

set +e
timeout 3000 chroot "$root" valgrind --tool=memcheck --error-limit=no --num-callers=30 \
  --log-file="$log" /usr/bin/godot --headless --path "$project" -- --run-tests "$@" 2>&1
status=$?
set -e

summary=$(grep -o "ERROR SUMMARY: [0-9]* errors" "$root$log" | tail -n 1 || true)
errors=${summary#ERROR SUMMARY: }
errors=${errors% errors}
if [ -z "$errors" ]; then
  echo "memcheck.sh: Valgrind wrote no summary (status $status):" >&2
  tail -n 30 "$root$log" >&2
  exit 1
fi
echo "memcheck: $errors errors"
if [ "$errors" != 0 ]; then
  # The first errors in full: each starts with a line naming it and ends at a blank one.
  awk '/== (Invalid|Conditional|Use of|Mismatched|Source and|Syscall)/ { n++; show = n <= 5 } show' "$root$log" | head -n 200
  exit 1
fi
exit "$status"
