#!/bin/sh
# Whole-process timings of `strata-cli zt validate` on 1 GiB of float32 weights, raw, without
# digests (the value scan alone) and with crc32c digests, in one tensor and in 64; next to the
# time `cat` takes to read the same file. Medians of 5 runs, files in the page cache.
#   tests/bench/ztensor/compare.sh BUILD_DIR
# Run it with the CPU lock held (flock /tmp/strata-cpu.lock ...) so no build runs meanwhile.
set -eu
build=${1:?usage: compare.sh BUILD_DIR}
cli="$build/app/cli/strata-cli"
work=${STRATA_BENCH_DIR:-/tmp/strata-bench}/zt-compare
mkdir -p "$work"

# The benchmark suite writes 64 float32 tensors of 16 MiB (crc32c digests) once to $TMPDIR.
many_crc="${TMPDIR:-/tmp}/strata-zt-bench-64x16MiB.zt"
if [ ! -s "$many_crc" ]; then
    "$build/tests/bench/strata_bench" --benchmark_filter=BM_ZtOpen1GiB > /dev/null
fi
many="$work/many-nodigest.zt"
one="$work/one-nodigest.zt"
one_crc="$work/one-crc32c.zt"
if [ ! -s "$many" ]; then
    "$cli" zt convert -q --digest none "$many_crc" "$many"
fi
if [ ! -s "$one" ] || [ ! -s "$one_crc" ]; then
    # The same 1 GiB of values as one 16384 x 16384 tensor: the tensors lie back to back from
    # offset 64, so they make the body of a .npy file as they are.
    npy="$work/one.npy"
    header="{'descr': '<f4', 'fortran_order': False, 'shape': (16384, 16384), }"
    pad=$((64 - (10 + ${#header} + 1) % 64))
    {
        printf '\223NUMPY\001\000'
        printf "\\$(printf '%03o' $(((${#header} + pad + 1) % 256)))\\$(printf '%03o' $(((${#header} + pad + 1) / 256)))"
        printf '%s%*s\n' "$header" "$pad" ''
        tail -c +65 "$many_crc" | head -c 1073741824
    } > "$npy"
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

for f in "$many" "$one" "$one_crc" "$many_crc"; do
    cat "$f" > /dev/null  # into the page cache
    echo "$(basename "$f"): validate $(median5 "$cli" zt validate "$f") s," \
         "-j 1 $(median5 "$cli" zt validate -j 1 "$f") s, cat $(median5 cat "$f") s"
done
