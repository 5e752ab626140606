#!/usr/bin/env bash
# Repair throughput against validation on one large ZS file with one damaged data block:
#   tests/bench/zs/repair.sh BUILD_DIR [SIZE_MIB] [WORK_DIR]
# Builds a deflate ZS file of about SIZE_MIB (default 1024) of sorted records with random base64
# payloads (so the file is as large as its records, roughly), flips one byte in a data block
# near the middle, then times `strata-cli validate` and `strata-cli repair` (medians of 3,
# the file hot in the page cache). Prints both times and their ratio.
set -euo pipefail
build=$(realpath "$1")
source "$(dirname "$(realpath "$0")")/../repair_versus_validate.sh"
mib=${2:-1024}
work=${3:-$(mktemp -d)}
cli=$build/app/cli/strata-cli
mkdir -p "$work"
cd "$work"
lines=$((mib * 1024 * 1024 / 48))
if [[ ! -f in.zs ]]; then
    paste -d' ' <(seq -f "%012.0f" 1 "$lines") <(head -c $((lines * 36)) /dev/urandom | base64 -w 48) \
        >sorted.txt
    "$cli" zs make --codec deflate "{}" sorted.txt good.zs
    rm sorted.txt
    cp good.zs in.zs
    size=$(stat -c %s in.zs)
    printf '\x5a' | dd of=in.zs bs=1 seek=$((size / 2)) conv=notrunc status=none
fi
compare_repair_with_validation "$cli" in.zs out.zs in.zs
