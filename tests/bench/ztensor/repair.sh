#!/usr/bin/env bash
# Repair throughput against validation on one large zTensor file with one damaged tensor:
#   tests/bench/ztensor/repair.sh BUILD_DIR [SIZE_MIB] [WORK_DIR] [ENCODING]
# Builds a safetensors file of 16 random u8 tensors (SIZE_MIB in all, default 1024), imports it
# as a zTensor file with SHA-256 digests (ENCODING raw by default, or zstd), flips one byte near
# the middle (inside a tensor's component), then times `strata-cli validate` and
# `strata-cli repair` (medians of 3, the file hot in the page cache). Prints both times and
# their ratio.
set -euo pipefail
build=$(realpath "$1")
mib=${2:-1024}
work=${3:-$(mktemp -d)}
encoding=${4:-raw}
cli=$build/app/cli/strata-cli
mkdir -p "$work"
cd "$work"
if [[ ! -f in.zt ]]; then
    each=$((mib * 1024 * 1024 / 16))
    header="{"
    for i in $(seq 0 15); do
        header+="\"t$i\":{\"dtype\":\"U8\",\"shape\":[$each],\"data_offsets\":[$((i * each)),$(((i + 1) * each))]}"
        [[ $i -lt 15 ]] && header+=","
    done
    header+="}"
    while (($(printf '%s' "$header" | wc -c) % 8 != 0)); do header+=" "; done
    length=$(printf '%s' "$header" | wc -c)
    {
        printf "$(printf '\\x%02x' $((length & 255)) $(((length >> 8) & 255)) 0 0 0 0 0 0)"
        printf '%s' "$header"
        head -c $((each * 16)) /dev/urandom
    } >in.safetensors
    "$cli" zt import --encoding "$encoding" --digest sha256 -q in.safetensors in.zt
    rm in.safetensors
    size=$(stat -c %s in.zt)
    printf '\x5a' | dd of=in.zt bs=1 seek=$((size / 2)) conv=notrunc status=none
fi
median() { sort -n | sed -n 2p; }
timed() {
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }'
}
cat in.zt >/dev/null
validate=$(for _ in 1 2 3; do timed "$cli" validate in.zt; done | median)
repair=$(for _ in 1 2 3; do rm -f out.zt; timed "$cli" repair in.zt --out out.zt; done | median)
"$cli" repair in.zt --out check.zt --dry-run | tail -1 || true
rm -f out.zt check.zt
echo "in.zt: $(stat -c %s in.zt) bytes; validate ${validate} s; repair ${repair} s; ratio $(awk -v a="$repair" -v b="$validate" 'BEGIN { printf "%.2f", a / b }')"
