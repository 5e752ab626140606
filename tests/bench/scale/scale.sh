#!/usr/bin/env bash
# The scale suite: generates inputs of every format at growing sizes, runs strata-cli's jobs on
# them, checks each verdict and count, and prints time and peak memory per size. A job whose
# time (or memory) grows faster than n log n from one size to the next is flagged SUPERLINEAR.
#
#   tests/bench/scale/scale.sh [--cli PATH] [--work DIR] [--sizes "10000 100000 1000000"]
#                              [--formats "zs zds zds-docs shardlake ozdf ztensor"]
#                              [--markdown FILE] [--check]
#
# --check: small sizes, verdicts and counts only (what CI runs); exit 1 on a wrong verdict or
# count, and also on a SUPERLINEAR flag when run without --check.
# Figures: docs/performance-scale.md. Sizes per format are capped where a size would need more
# disk or time than the standard machine has (see MAX_* below); larger sizes are skipped.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cli="$root/build/release/app/cli/strata-cli"
work="${TMPDIR:-/tmp}/strata-scale"
sizes="10000 100000 1000000"
formats="zs zds zds-docs shardlake ozdf ztensor"
markdown=""
check=0
while [ $# -gt 0 ]; do
    case "$1" in
        --cli) cli="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        --sizes) sizes="$2"; shift 2 ;;
        --formats) formats="$2"; shift 2 ;;
        --markdown) markdown="$2"; shift 2 ;;
        --check) check=1; shift ;;
        *) echo "scale.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

# Largest size generated per format (records, lines, documents, vectors, tensors).
MAX_zs=10000000
MAX_zds=1000000
MAX_zds_docs=1000000
MAX_shardlake=10000000
MAX_ozdf=100000
MAX_ztensor=100000

mkdir -p "$work"
results="$work/results.tsv"
: > "$results"
failures=0

fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# run FORMAT JOB N EXPECTED_EXIT -- command...: times the command (wall seconds, peak KiB),
# checks its exit code, records a row. Its stdout goes to $work/out.txt.
run() {
    local format="$1" job="$2" n="$3" expected="$4"
    shift 5
    local status=0
    /usr/bin/time -f "%e %M" -o "$work/time.txt" "$@" > "$work/out.txt" 2> "$work/err.txt" ||
        status=$?
    read -r seconds kib < <(tail -n 1 "$work/time.txt")
    if [ "$status" != "$expected" ]; then
        fail "$format $job n=$n exited $status, expected $expected: $(head -c 400 "$work/err.txt")"
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$format" "$job" "$n" "$seconds" "$kib" >> "$results"
    printf '%-10s %-20s %9s %8.2f s %8.0f MiB\n' "$format" "$job" "$n" "$seconds" \
        "$(awk -v k="$kib" 'BEGIN{print k/1024}')" >&2
}

expect_count() {  # what, got, want
    if [ "$2" != "$3" ]; then
        fail "$1: counted $2, expected $3"
    fi
}

gen_zs() {  # n dir
    local n="$1" dir="$2"
    awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "k%012d\tpayload %d lorem ipsum dolor sit amet\n", i, i * 7 }' \
        > "$dir/records.txt"
}

scale_zs() {
    local n="$1" dir="$work/zs-$n"
    rm -rf "$dir" && mkdir -p "$dir"
    gen_zs "$n" "$dir"
    run zs make "$n" 0 -- "$cli" zs make '{}' "$dir/records.txt" "$dir/out.zs"
    run zs validate "$n" 0 -- "$cli" zs validate "$dir/out.zs"
    run zs info "$n" 0 -- "$cli" zs info "$dir/out.zs"
    run zs "dump --prefix" "$n" 0 -- "$cli" zs dump --prefix "k$(printf '%012d' $((n / 2)))" "$dir/out.zs"
    expect_count "zs dump --prefix n=$n" "$(wc -l < "$work/out.txt")" 1
    if [ "$check" = 1 ]; then
        "$cli" zs dump "$dir/out.zs" > "$work/out.txt"
        expect_count "zs dump n=$n" "$(wc -l < "$work/out.txt")" "$n"
    fi
    rm -f "$dir/records.txt"
}

gen_zds() {  # n dir
    local n="$1" dir="$2"
    mkdir -p "$dir/collections/main/meta"
    awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "{\"_id\":\"d%09d\",\"n\":%d,\"text\":\"document %d lorem ipsum\",\"tags\":[\"a\",\"b\"]}\n", i, i, i }' \
        > "$dir/collections/main/meta/data.jsonl"
}

scale_zds() {
    local n="$1" dir="$work/zds-$n"
    rm -rf "$dir" && mkdir -p "$dir"
    gen_zds "$n" "$dir"
    run zds reindex "$n" 0 -- "$cli" zds reindex "$dir"
    run zds validate "$n" 0 -- "$cli" zds validate "$dir"
    run zds get "$n" 0 -- "$cli" zds get "$dir" --collection main "d$(printf '%09d' $((n / 2)))"
    run zds ls "$n" 0 -- "$cli" zds ls "$dir" --collection main
    expect_count "zds ls n=$n" "$(wc -l < "$work/out.txt")" "$n"
    run zds compact "$n" 0 -- "$cli" zds compact "$dir"
}

scale_zds_docs() {
    local n="$1" dir="$work/zds-docs-$n"
    rm -rf "$dir" && mkdir -p "$dir"
    gen_zds "$n" "$dir"
    "$cli" zds reindex "$dir" > /dev/null
    run zds-docs "convert --to docs" "$n" 0 -- "$cli" zds convert --to docs "$dir"
    expect_count "zds-docs files n=$n" "$(find "$dir/collections/main/docs" -name '*.json' | wc -l)" "$n"
    run zds-docs validate "$n" 0 -- "$cli" zds validate "$dir"
    run zds-docs get "$n" 0 -- "$cli" zds get "$dir" --collection main "d$(printf '%09d' $((n / 2)))"
    run zds-docs ls "$n" 0 -- "$cli" zds ls "$dir" --collection main
    expect_count "zds-docs ls n=$n" "$(wc -l < "$work/out.txt")" "$n"
    run zds-docs "convert --to jsonl" "$n" 0 -- "$cli" zds convert --to jsonl "$dir"
}

scale_shardlake() {
    local n="$1" dir="$work/shardlake-$n"
    rm -rf "$dir" && mkdir -p "$dir"
    awk -v n="$n" 'BEGIN { srand(7); for (i = 0; i < n; i++) { printf "{\"id\":%d,\"vector\":[", i; for (d = 0; d < 16; d++) printf "%s%.5f", (d ? "," : ""), rand() - 0.5; printf "],\"metadata\":{\"n\":%d}}\n", i } }' \
        > "$dir/vectors.jsonl"
    run shardlake "ingest + build" "$n" 0 -- "$cli" shardlake build "$dir/root" --input "$dir/vectors.jsonl" \
        --dataset-version d1 --index-version i1 --num-shards 16 --kmeans-sample-size 20000 \
        --timestamp 2026-01-01T00:00:00Z
    run shardlake validate "$n" 0 -- "$cli" shardlake validate "$dir/root"
    run shardlake info "$n" 0 -- "$cli" shardlake info "$dir/root"
    rm -f "$dir/vectors.jsonl"
}

scale_ozdf() {
    local n="$1" dir="$work/ozdf-$n"
    rm -rf "$dir" && mkdir -p "$dir"
    awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "{\"filename\":\"doc%07d.ozdf\",\"is_directory\":false,\"elements\":[{\"kind\":\"block\",\"name\":\"TITLE\",\"paragraphs\":[\"document %d\"]},{\"kind\":\"list\",\"name\":\"ITEMS\",\"items\":[{\"name\":\"a\",\"paragraphs\":[\"first %d\"]},{\"name\":null,\"paragraphs\":[\"second\"]}]}]}\n", i, i, i }' \
        > "$dir/in.jsonl"
    run ozdf import "$n" 0 -- "$cli" ozdf import "$dir/in.jsonl" "$dir/corpus"
    run ozdf validate "$n" 0 -- "$cli" ozdf validate "$dir/corpus"
    run ozdf export "$n" 0 -- "$cli" ozdf export "$dir/corpus"
    expect_count "ozdf export n=$n" "$(wc -l < "$work/out.txt")" "$n"
    rm -f "$dir/in.jsonl"
}

scale_ztensor() {
    local n="$1" dir="$work/ztensor-$n"
    rm -rf "$dir" && mkdir -p "$dir"
    # A safetensors file of n small float32 tensors (8 bytes header length, JSON header, data).
    python3 - "$n" "$dir/in.safetensors" <<'EOF'
import json, struct, sys
n, path = int(sys.argv[1]), sys.argv[2]
header, data = {}, bytearray()
for i in range(n):
    values = struct.pack("<4f", i, i + 0.5, -i, 1.0)
    header[f"layer{i:07d}.weight"] = {"dtype": "F32", "shape": [2, 2],
                                      "data_offsets": [len(data), len(data) + len(values)]}
    data += values
text = json.dumps(header, separators=(",", ":")).encode()
text += b" " * (-len(text) % 8)
with open(path, "wb") as f:
    f.write(struct.pack("<Q", len(text)) + text + bytes(data))
EOF
    run ztensor import "$n" 0 -- "$cli" zt import "$dir/in.safetensors" "$dir/out.zt"
    run ztensor validate "$n" 0 -- "$cli" zt validate "$dir/out.zt"
    run ztensor info "$n" 0 -- "$cli" zt info "$dir/out.zt"
    run ztensor dump "$n" 0 -- "$cli" zt dump "$dir/out.zt"
    rm -f "$dir/in.safetensors"
}

for format in $formats; do
    var="MAX_${format//-/_}"
    for n in $sizes; do
        if [ "$n" -gt "${!var}" ]; then
            echo "skip $format n=$n (above $var=${!var})" >&2
            continue
        fi
        "scale_${format//-/_}" "$n"
        [ "$check" = 1 ] && rm -rf "$work/$format-$n"
    done
done

# Growth between consecutive sizes of one job: time may grow by n log n, with a margin for
# noise (x1.6) and no judgement under half a second; memory by n, from 64 MiB on.
flags=$(awk -F '\t' '
    function nlogn(n) { return n * log(n) }
    {
        key = $1 "\t" $2
        if (key in lastN) {
            allowedT = nlogn($3) / nlogn(lastN[key]) * 1.6
            allowedM = $3 / lastN[key] * 1.6
            grewT = $4 / (lastT[key] > 0.05 ? lastT[key] : 0.05)
            grewM = $5 / lastM[key]
            if ($4 >= 0.5 && grewT > allowedT)
                printf "SUPERLINEAR time %s %s: %s -> %s: x%.1f (n log n allows x%.1f)\n", $1, $2, lastN[key], $3, grewT, allowedT
            if ($5 >= 65536 && grewM > allowedM)
                printf "SUPERLINEAR memory %s %s: %s -> %s: x%.1f (n allows x%.1f)\n", $1, $2, lastN[key], $3, grewM, allowedM
        }
        lastN[key] = $3; lastT[key] = $4; lastM[key] = $5
    }' "$results")

if [ -n "$markdown" ]; then
    {
        echo "| format | job | n | seconds | peak MiB |"
        echo "|---|---|---:|---:|---:|"
        awk -F '\t' '{ printf "| %s | %s | %d | %.2f | %.0f |\n", $1, $2, $3, $4, $5 / 1024 }' "$results"
    } > "$markdown"
fi

if [ -n "$flags" ]; then
    echo "$flags" >&2
fi
if [ "$failures" -gt 0 ]; then
    echo "scale.sh: $failures wrong verdict(s) or count(s)" >&2
    exit 1
fi
if [ "$check" = 0 ] && [ -n "$flags" ]; then
    exit 1
fi
echo "scale.sh: every verdict and count right" >&2
