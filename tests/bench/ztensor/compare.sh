#!/bin/sh
# Whole-process timings of `strata-cli zt validate` on 1 GiB of float32 weights in one raw
# 16384 x 16384 tensor, without digests (the NaN/Inf scan alone) and with a crc32c digest, next
# to the time `cat` takes to read the same file. Medians of 5 runs, files in the page cache.
#   tests/bench/ztensor/compare.sh BUILD_DIR
# Run it with the CPU lock held (flock /tmp/strata-cpu.lock ...) so no build runs meanwhile.
set -eu
build=${1:?usage: compare.sh BUILD_DIR}
cli="$build/app/cli/strata-cli"
work=${STRATA_BENCH_DIR:-/tmp/strata-bench}/zt-compare
mkdir -p "$work"
one="$work/one-nodigest.zt"
one_crc="$work/one-crc32c.zt"
if [ ! -s "$one" ] || [ ! -s "$one_crc" ]; then
    # 16 MiB of normally distributed values (like trained weights), 64 times over, as .npy.
    npy="$work/one.npy"
    python3 - "$npy" <<'PY'
import array, random, sys
random.seed(7)
block = array.array('f', (random.gauss(0.0, 0.02) for _ in range(4 << 20))).tobytes()
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (16384, 16384), }"
header += ' ' * (63 - (10 + len(header)) % 64) + '\n'
with open(sys.argv[1], 'wb') as out:
    out.write(b'\x93NUMPY\x01\x00' + len(header).to_bytes(2, 'little') + header.encode())
    for _ in range(64):
        out.write(block)
PY
    rm -f "$one" "$one_crc"
    "$cli" zt import -q --digest none "$npy" "$one"
    "$cli" zt import -q --digest crc32c "$npy" "$one_crc"
    rm -f "$npy"
fi

median5() {  # median wall seconds of a command run 5 times (output discarded)
    for run in 1 2 3 4 5; do
        start=$(date +%s.%N)
        "$@" > /dev/null
        end=$(date +%s.%N)
        echo "$end - $start" | bc
    done | sort -n | sed -n 3p
}

for f in "$one" "$one_crc"; do
    cat "$f" > /dev/null  # into the page cache
    echo "$(basename "$f"): validate $(median5 "$cli" zt validate "$f") s," \
         "-j 1 $(median5 "$cli" zt validate -j 1 "$f") s, cat $(median5 cat "$f") s"
done
