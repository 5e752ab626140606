# Sourced by the per-format repair benchmarks (tests/bench/*/repair.sh), from their work folder.
# compare_repair_with_validation CLI INPUT OUTPUT SIZED: reads INPUT (a file or folder) into the
# page cache, times `CLI validate INPUT` and `CLI repair INPUT --out OUTPUT` (medians of 3; the
# output and its quarantine are removed before each repair and after), prints the dry run's
# summary, then SIZED's size, both times and their ratio.

median() { sort -n | sed -n 2p; }

timed() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }'
}

compare_repair_with_validation() {
    local cli=$1 input=$2 output=$3 sized=$4 validate repair
    find "$input" -type f -exec cat {} + >/dev/null
    validate=$(for _ in 1 2 3; do timed "$cli" validate "$input"; done | median)
    repair=$(for _ in 1 2 3; do
        rm -rf "$output" "$output".quarantine*
        timed "$cli" repair "$input" --out "$output"
    done | median)
    rm -rf "$output" "$output".quarantine*
    "$cli" repair "$input" --out "$output" --dry-run | tail -1 || true
    echo "$sized: $(stat -c %s "$sized") bytes; validate ${validate} s; repair ${repair} s;" \
        "ratio $(awk -v a="$repair" -v b="$validate" 'BEGIN { printf "%.2f", a / b }')"
}
