#!/bin/sh
# The scan figures on local files (docs/performance-scan.md):
#  1. 10,000 entries (ZS and zTensor files, ZDS datasets, OZDF corpora, Shardlake roots and text
#     files; about one in eight of each format damaged): `strata-cli scan --jobs 2` against a
#     shell loop of `strata-cli validate` over the same entries (hyperfine, or /usr/bin/time
#     once each where hyperfine is missing), and the CPU the scan keeps busy.
#  2. The peak resident set of `strata-cli scan` at 10k, 50k and 100k entries, most of them tiny
#     text files in one folder (/usr/bin/time -v), and the same numbers of tiny text files spread
#     over folders of 1,000.
#   tests/bench/scan/scan_local.sh BUILD_DIR [WORK_DIR]
# Trees are generated once under WORK_DIR (default /tmp/strata-bench/scan) and reused. Run it
# with the CPU lock held (flock /tmp/strata-cpu.lock ...). STRATA_SCAN_SIZES="10000 50000"
# changes the memory sizes; STRATA_SCAN_PARTS=throughput or memory runs one part.
set -eu
build=${1:?usage: scan_local.sh BUILD_DIR [WORK_DIR]}
work=${2:-${STRATA_BENCH_DIR:-/tmp/strata-bench}/scan}
cli=$(realpath "${STRATA_CLI:-$build/app/cli/strata-cli}")
gen=$(realpath "$build/tests/bench/scan/strata_scan_tree")
parts=${STRATA_SCAN_PARTS:-throughput memory}
mkdir -p "$work"

# tree NAME ARGS...: a tree made once by the generator (a marker says it finished).
tree() {
    name=$1
    shift
    if [ ! -e "$work/$name/.complete" ]; then
        rm -rf "${work:?}/$name"
        "$gen" "$work/$name" "$@" | sed 1d >&2
        : > "$work/$name/.complete"
    fi
    echo "$work/$name/tree"
}

throughput() {
    root=$(tree mix-10000 zs=4000 zt=4000 zds=200 shardlake=100 ozdf=200 unknown=1500)
    echo "== $(find "$root" -type f | wc -l) files, $(du -sh "$root" | cut -f1) in $root"
    # The entries a scan finds (a dataset folder is one), for the loop to validate one by one.
    "$cli" scan "$root" --jsonl --jobs 2 | python3 -c '
import json, sys
for line in sys.stdin:
    j = json.loads(line)
    if j["type"] == "entry":
        print(j["location"])' > "$work/entries.txt"
    echo "== $(wc -l < "$work/entries.txt") entries"
    cat > "$work/validate-each.sh" <<LOOP
while IFS= read -r entry; do "$cli" validate "\$entry" > /dev/null; done < "$work/entries.txt"
LOOP
    if command -v hyperfine > /dev/null; then
        # Exit 1 (damage found) is the expected outcome of both commands.
        hyperfine -i --warmup 1 --runs 5 "$cli scan $root --jobs 2" "$cli scan $root --jobs 1"
        hyperfine -i --runs 2 "sh $work/validate-each.sh"
    else
        /usr/bin/time -f "scan --jobs 2: %e s, %U user, %S sys, %P CPU" \
            "$cli" scan "$root" --jobs 2 > /dev/null || true
        /usr/bin/time -f "validate loop: %e s, %U user, %S sys, %P CPU" \
            sh "$work/validate-each.sh" || true
    fi
}

memory() {
    for n in ${STRATA_SCAN_SIZES:-10000 50000 100000}; do
        formats=$((n / 20))
        units=$((n / 1000))
        unknown=$((n - 2 * formats - 3 * units))
        root=$(tree "tiny-$n" zs=$formats zt=$formats zds=$units shardlake=$units ozdf=$units \
            unknown=$unknown)
        /usr/bin/time -f "$n entries, tiny files in one folder: %e s, %P CPU, max RSS %M KiB" \
            "$cli" scan "$root" --jobs 2 > /dev/null || true
        root=$(spread "$n")
        /usr/bin/time -f "$n entries, folders of 1,000 tiny files: %e s, %P CPU, max RSS %M KiB" \
            "$cli" scan "$root" --jobs 2 > /dev/null || true
    done
}

# spread N: N tiny text files in folders of 1,000, made once.
spread() {
    root="$work/spread-$1"
    if [ ! -e "$root/.complete" ]; then
        rm -rf "$root"
        python3 - "$root/tree" "$1" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    folder = os.path.join(root, "f%04d" % (i // 1000))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "notes%d.txt" % i), "w") as f:
        f.write("notes of run %d\n" % i)
PY
        : > "$root/.complete"
    fi
    echo "$root/tree"
}

for part in $parts; do
    $part
done
