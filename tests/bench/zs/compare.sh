#!/bin/sh
# Whole-process timings of strata-cli zs on the workload of the corpus README's reference
# timings: 3,800,000 sorted "ngram<TAB>count" lines (~100 MB). Medians of 3 runs (5 for dumps).
#   tests/bench/zs/compare.sh BUILD_DIR [CORPUS_DIR]
# Run it with the CPU lock held (flock /tmp/strata-cpu.lock ...) so no build runs meanwhile.
# ZS_COMPARE=dump times only the dumps (the files from an earlier run are kept).
set -eu
build=${1:?usage: compare.sh BUILD_DIR [CORPUS_DIR]}
corpus=${2:-$(dirname "$0")/../../../../shared/corpus}
cli="$build/app/cli/strata-cli"
work=${STRATA_BENCH_DIR:-/tmp/strata-bench}/zs-compare
mkdir -p "$work"

input="$work/ngrams.txt"
if [ ! -s "$input" ]; then
    # Deterministic sorted ngram-like lines: "wordA wordB wordC<TAB>count".
    awk 'BEGIN {
        split("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike " \
              "november oscar papa quebec romeo sierra tango uniform victor whiskey xray", w, " ");
        n = 0;
        for (i = 1; i <= 24 && n < 3800000; i++)
          for (j = 1; j <= 24 && n < 3800000; j++)
            for (k = 0; k < 6600 && n < 3800000; k++) {
              printf "%s %s %06d\t%d\n", w[i], w[j], k, (k * 7919) % 100000; n++
            }
    }' > "$input"
fi

median3() {  # median wall seconds of a command run 3 times
    for run in 1 2 3; do
        start=$(date +%s.%N)
        "$@" > /dev/null
        end=$(date +%s.%N)
        echo "$end - $start" | bc
    done | sort -n | sed -n 2p
}

median5() {
    for run in 1 2 3 4 5; do
        start=$(date +%s.%N)
        "$@" > /dev/null
        end=$(date +%s.%N)
        echo "$end - $start" | bc
    done | sort -n | sed -n 3p
}

echo "input: $(wc -c < "$input") bytes, $(wc -l < "$input") lines"
if [ "${ZS_COMPARE:-all}" != dump ] || [ ! -s "$work/lzma.zs" ] || [ ! -s "$work/deflate.zs" ]; then
    rm -f "$work/lzma.zs" "$work/deflate.zs"
    echo "make lzma (default 0e), -j 2: $(median3 sh -c "rm -f '$work/lzma.zs'; '$cli' zs make -j 2 {} '$input' '$work/lzma.zs'") s"
    echo "make deflate, -j 2:          $(median3 sh -c "rm -f '$work/deflate.zs'; '$cli' zs make -j 2 --codec=deflate {} '$input' '$work/deflate.zs'") s"
fi
if [ "${ZS_COMPARE:-all}" != dump ]; then
    echo "validate lzma:               $(median3 "$cli" zs validate "$work/lzma.zs") s"
    echo "validate deflate:            $(median3 "$cli" zs validate "$work/deflate.zs") s"
fi
for codec in lzma deflate; do
    for j in 1 2; do
        echo "dump -j $j -o /dev/null $codec: $(median5 "$cli" zs dump -j $j -o /dev/null "$work/$codec.zs") s"
    done
    echo "dump > file $codec (default -j): $(median5 sh -c "'$cli' zs dump '$work/$codec.zs' > '$work/dump.txt'") s"
done
rm -f "$work/dump.txt"
big="$corpus/zs/valid/big-ngrams-1m.zs"
if [ -f "$big" ]; then
    echo "dump --prefix='kato ' big-ngrams-1m: $(median3 "$cli" zs dump '--prefix=kato ' "$big") s"
    echo "info big-ngrams-1m:          $(median3 "$cli" zs info "$big") s"
fi
echo "sizes: lzma $(wc -c < "$work/lzma.zs"), deflate $(wc -c < "$work/deflate.zs") bytes"
