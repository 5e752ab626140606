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
source "$(dirname "$(realpath "$0")")/../repair_versus_validate.sh"
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
compare_repair_with_validation "$cli" in.zt out.zt in.zt
