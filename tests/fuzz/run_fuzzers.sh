#!/bin/sh
# Runs every built Strata fuzzer for SECONDS over a copy of its seed corpus.
# Usage: tests/fuzz/run_fuzzers.sh BUILD_DIR SECONDS   (SECONDS = 0 replays the seeds only)
# Exit status: 0 when every fuzzer ran clean, 1 when one crashed or none was found.
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 BUILD_DIR SECONDS" >&2
    exit 2
fi
build_dir=$1
seconds=$2
seeds_root=$(cd "$(dirname "$0")" && pwd)/corpus
work=$(mktemp -d "${TMPDIR:-/tmp}/strata-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

found=0
failed=0
for fuzzer in $(find "$build_dir" -type f -perm -u+x -name 'fuzz_*' | sort); do
    name=$(basename "$fuzzer")
    found=$((found + 1))
    # New inputs go to a scratch directory; the seeds in the source tree stay untouched.
    mkdir -p "$work/$name"
    set -- "$work/$name"
    if [ -d "$seeds_root/$name" ]; then
        set -- "$@" "$seeds_root/$name"
    fi
    echo "== $name (${seconds}s)"
    if [ "$seconds" -eq 0 ]; then
        budget=-runs=0  # replay the seeds only: deterministic, for CI
    else
        budget=-max_total_time="$seconds"
    fi
    if ! "$fuzzer" "$budget" -timeout=10 -rss_limit_mb=2048 \
            -print_final_stats=1 -artifact_prefix="$work/$name-" "$@" \
            >"$work/$name.log" 2>&1; then
        failed=$((failed + 1))
        tail -n 60 "$work/$name.log"
        for artifact in "$work/$name"-*; do
            [ -e "$artifact" ] && cp "$artifact" "$build_dir/" &&
                echo "crash input saved as $build_dir/$(basename "$artifact")"
        done
        echo "FAILED: $name"
    else
        grep -E "^stat::number_of_executed_units|^Done" "$work/$name.log" || true
    fi
done

if [ "$found" -eq 0 ]; then
    echo "no fuzz_* executables under $build_dir" >&2
    exit 1
fi
echo "$found fuzzer(s) run, $failed failed"
[ "$failed" -eq 0 ]
