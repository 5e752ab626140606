#!/bin/sh
# Whole-process timings of strata-cli on the OZDF benchmark corpus (ozdf_bench_corpus.h: 400
# documents, about 51 MB in 2,400 files): `ozdf validate` reads every document, as loading the
# corpus does, and reports. Medians of 5 runs, files in the page cache.
#   tests/bench/ozdf/compare.sh BUILD_DIR
# Run it with the CPU lock held (flock /tmp/strata-cpu.lock ...) so no build runs meanwhile.
set -eu
build=${1:?usage: compare.sh BUILD_DIR}
cli="$build/app/cli/strata-cli"
work=${STRATA_BENCH_DIR:-/tmp/strata-bench}/ozdf-compare
corpus="$work/corpus"
if [ ! -d "$corpus" ]; then
    mkdir -p "$work"
    "$build/tests/bench/ozdf/ozdf_bench_corpus" "$corpus"
fi

median5() {  # median wall seconds of a command run 5 times (output discarded)
    for run in 1 2 3 4 5; do
        start=$(date +%s.%N)
        "$@" > /dev/null
        end=$(date +%s.%N)
        echo "$end - $start" | bc
    done | sort -n | sed -n 3p
}

cat "$corpus"/*.ozdf "$corpus"/*/* > /dev/null  # into the page cache
echo "corpus: $(du -sb "$corpus" | cut -f1) bytes in $(find "$corpus" -type f | wc -l) files"
echo "ozdf validate: $(median5 "$cli" ozdf validate "$corpus") s"
echo "strata-cli --version (start-up alone): $(median5 "$cli" --version) s"
