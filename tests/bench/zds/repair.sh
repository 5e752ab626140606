#!/usr/bin/env bash
# Repair throughput against validation on one large ZDS dataset folder with one damaged line:
#   tests/bench/zds/repair.sh BUILD_DIR [SIZE_MIB] [WORK_DIR]
# Builds a one-collection dataset of about SIZE_MIB (default 1024) of JSON lines (an `_id` and a
# random base64 value each) with its index (`strata-cli zds reindex`), breaks one line near the
# middle in place (its closing brace becomes '@'), then times `strata-cli validate` and
# `strata-cli repair` (medians of 3, the files hot in the page cache). Prints both times and their
# ratio.
set -euo pipefail
build=$(realpath "$1")
mib=${2:-1024}
work=${3:-$(mktemp -d)}
cli=$build/app/cli/strata-cli
mkdir -p "$work"
cd "$work"
lines=$((mib * 1024 * 1024 / 97))
data=in/collections/c/meta/data.jsonl
if [[ ! -f in/collections/c/meta/index.bin ]]; then
    mkdir -p in/collections/c/meta
    paste -d'\t' <(seq -f "%012.0f" 1 "$lines") <(head -c $((lines * 48)) /dev/urandom | base64 -w 64) |
        awk -F'\t' '{ printf "{\"_id\":\"d%s\",\"v\":\"%s\"}\n", $1, $2 }' >"$data"
    "$cli" zds reindex in >/dev/null
    middle=$(($(stat -c %s "$data") / 2))
    brace=$(set +o pipefail; tail -c +$((middle + 1)) "$data" | head -c 4096 | grep -b -o -m1 '}' |
        head -1 | cut -d: -f1)
    printf '@' | dd of="$data" bs=1 seek=$((middle + brace)) conv=notrunc status=none
fi
median() { sort -n | sed -n 2p; }
timed() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }'
}
cat "$data" in/collections/c/meta/index.bin >/dev/null
validate=$(for _ in 1 2 3; do timed "$cli" validate in; done | median)
repair=$(for _ in 1 2 3; do rm -rf out out.quarantine.jsonl; timed "$cli" repair in --out out; done | median)
"$cli" repair in --out check --dry-run | tail -1 || true
rm -rf out out.quarantine.jsonl check
echo "data.jsonl: $(stat -c %s "$data") bytes; validate ${validate} s; repair ${repair} s; ratio $(awk -v a="$repair" -v b="$validate" 'BEGIN { printf "%.2f", a / b }')"
