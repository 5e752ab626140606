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
source "$(dirname "$(realpath "$0")")/../repair_versus_validate.sh"
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
compare_repair_with_validation "$cli" in out "$data"
