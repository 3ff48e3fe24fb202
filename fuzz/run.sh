#!/bin/sh
# Runs one fuzz target, coverage-guided (libFuzzer via cargo-fuzz), on one core.
#
#   fuzz/run.sh TARGET [SECONDS] [extra libFuzzer flags...]
#   fuzz/run.sh decode 180
#   fuzz/run.sh replay TARGET      # run every saved regression input of TARGET once
#
# TARGET is decode, roundtrip or stream. The seeds in corpus/TARGET are read, never
# written: what libFuzzer finds goes to work/TARGET (git-ignored), crashes to
# artifacts/TARGET/. Needs cargo-fuzz (`cargo install cargo-fuzz --locked`); works on the
# stable toolchain through RUSTC_BOOTSTRAP=1 (see README.md).
set -eu
cd "$(dirname "$0")"
export RUSTC_BOOTSTRAP=1
export CARGO_BUILD_JOBS="${CARGO_BUILD_JOBS:-1}"

if [ "${1:-}" = replay ]; then
    target="${2:?usage: run.sh replay TARGET}"
    if [ ! -d "regressions/$target" ] || [ -z "$(ls -A "regressions/$target")" ]; then
        echo "no regression inputs for $target"
        exit 0
    fi
    exec cargo fuzz run "$target" "regressions/$target" -- -runs=0
fi

target="${1:?usage: run.sh TARGET [SECONDS] [libFuzzer flags...]}"
seconds="${2:-180}"
[ $# -ge 2 ] && shift 2 || shift 1
mkdir -p "work/$target"
exec cargo fuzz run "$target" "work/$target" "corpus/$target" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 "$@"
