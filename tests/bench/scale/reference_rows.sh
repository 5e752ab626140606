#!/usr/bin/env bash
# The jobs that were slower than the reference tools (issue 28's rows), measured in one run on
# this machine and printed as a Markdown table beside the reference figures recorded in
# ../shared/corpus (the reference tools are not built here):
#   - `zds validate` of a 100,000-document docs/ dataset (reference 1.2 s);
#   - `zds convert --to docs` of it, against what the machine takes to create 100,000 small
#     files and sync once (the goal: within 1.5x of that);
#   - `shardlake build --input` of 200,000 x 128 vectors into 32 shards (reference: ingest
#     4.43 s + build-index 11.44 s) and `shardlake validate` of that root (reference 0.79 s);
#   - strata-cli start-up, CPU time of `--version` (goal: at most 2 ms).
# Each time is the median of --runs runs (default 3). Run it on an idle machine:
#   tests/bench/scale/reference_rows.sh [--cli build/release/app/cli/strata-cli] [--work DIR]
set -euo pipefail

cli="build/release/app/cli/strata-cli"
work="/var/tmp/strata-reference-rows"
runs=3
while (($#)); do
    case "$1" in
        --cli) cli="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        *) echo "usage: $0 [--cli PATH] [--work DIR] [--runs N]" >&2; exit 2 ;;
    esac
done
cli="$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")"
mkdir -p "$work"

# Wall seconds of one run of the command (its output discarded); fails when it exits non-zero.
seconds() {
    local start end
    start=$(date +%s%N)
    "$@" > /dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
    end=$(date +%s%N)
    awk -v ns=$((end - start)) 'BEGIN { printf "%.3f\n", ns / 1e9 }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# Median wall seconds of `runs` runs; `prepare` (a function name or :) runs before each.
timed() {
    local prepare="$1"; shift
    for ((i = 0; i < runs; i++)); do
        "$prepare"
        seconds "$@"
    done | median
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

row() { printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4"; }

echo "| job | Strata (s, median of $runs) | reference or goal | ratio |"
echo "|---|---:|---|---:|"

# --- ZDS, file per document --------------------------------------------------------------
zds="$work/zds-docs"
make_jsonl_dataset() {
    rm -rf "$zds" && mkdir -p "$zds/collections/main/meta"
    awk 'BEGIN { for (i = 0; i < 100000; i++) printf "{\"_id\":\"d%09d\",\"n\":%d,\"text\":\"document %d lorem ipsum\",\"tags\":[\"a\",\"b\"]}\n", i, i, i }' \
        > "$zds/collections/main/meta/data.jsonl"
    "$cli" zds reindex "$zds" > /dev/null
    sync
}
convert=$(timed make_jsonl_dataset "$cli" zds convert --to docs "$zds")
baseline_files() {
    python3 - "$work/baseline" <<'PY'
import os, shutil, sys
folder = sys.argv[1]
shutil.rmtree(folder, ignore_errors=True)
os.makedirs(folder)
for i in range(100000):
    with open(os.path.join(folder, "d%09d.json" % i), "w") as f:
        f.write('{"n":%d,"text":"document %d lorem ipsum","tags":["a","b"]}' % (i, i))
os.sync()
PY
}
baseline=$(for ((i = 0; i < runs; i++)); do seconds baseline_files; done | median)
row "zds convert --to docs, 100,000 documents" "$convert" \
    "goal: 1.5 x creating 100,000 files and one sync ($baseline s here)" \
    "$(ratio "$convert" "$baseline") x the files"
validate=$(timed : "$cli" zds validate "$zds")
row "zds validate, 100,000 documents (docs/)" "$validate" "reference 1.2 s" \
    "$(ratio 1.2 "$validate") x faster"
rm -rf "$work/baseline"

# --- Shardlake, 200,000 x 128 vectors ------------------------------------------------------
sl="$work/shardlake"
mkdir -p "$sl"
if [[ ! -s "$sl/vectors.jsonl" ]]; then
    awk 'BEGIN { srand(11); for (i = 0; i < 200000; i++) { printf "{\"id\":%d,\"vector\":[", i; for (d = 0; d < 128; d++) printf "%s%.6f", (d ? "," : ""), rand() - 0.5; printf "],\"metadata\":{\"n\":%d}}\n", i } }' \
        > "$sl/vectors.jsonl"
fi
fresh_root() { rm -rf "$sl/root"; sync; }
build=$(timed fresh_root "$cli" shardlake build "$sl/root" --input "$sl/vectors.jsonl" \
    --dataset-version d1 --index-version i1 --num-shards 32 --metric euclidean \
    --timestamp 2026-01-01T00:00:00Z)
row "shardlake build --input, 200,000 x 128 into 32 shards" "$build" \
    "reference ingest 4.43 s + build-index 11.44 s" \
    "$(ratio 15.87 "$build") x faster"
slvalidate=$(timed : "$cli" shardlake validate "$sl/root")
row "shardlake validate of that root" "$slvalidate" "reference 0.79 s" \
    "$(ratio 0.79 "$slvalidate") x faster"

# --- Start-up ------------------------------------------------------------------------------
cpu_ms=$(perf stat -x, -r 50 -e task-clock "$cli" --version 2>&1 > /dev/null |
    awk -F, '/task-clock/ { printf "%.2f", $1 }')
row "strata-cli --version, CPU" "$cpu_ms ms" "goal: at most 2 ms" ""
