#!/usr/bin/env bash
# Repair throughput against validation on one large ZS file with one damaged data block:
#   tests/bench/zs/repair.sh BUILD_DIR [SIZE_MIB] [WORK_DIR]
# Builds a deflate ZS file of about SIZE_MIB (default 1024) of sorted records with random base64
# payloads (so the file is as large as its records, roughly), flips one byte in a data block
# near the middle, then times `strata-cli validate` and `strata-cli repair` (medians of 3,
# the file hot in the page cache). Prints both times and their ratio.
set -euo pipefail
build=$(realpath "$1")
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
median() { sort -n | sed -n 2p; }
timed() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }'
}
cat in.zs >/dev/null
validate=$(for _ in 1 2 3; do timed "$cli" validate in.zs; done | median)
repair=$(for i in 1 2 3; do rm -f out.zs; timed "$cli" repair in.zs --out out.zs; done | median)
"$cli" repair in.zs --out check.zs --dry-run | tail -1 || true
rm -f out.zs check.zs
echo "file: $(stat -c %s in.zs) bytes; validate ${validate} s; repair ${repair} s; ratio $(awk -v a="$repair" -v b="$validate" 'BEGIN { printf "%.2f", a / b }')"
