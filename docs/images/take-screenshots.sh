#!/bin/bash
# Takes the user guide's pictures with Strata itself (offscreen, no display needed) at the two
# window sizes the guide shows: 1366x768 and 1920x1080. Run from the source tree after a build:
#   docs/images/take-screenshots.sh [build/release] [../shared/corpus]
# Writes docs/images/<W>x<H>/*.png. Settings go to a scratch folder, so no recent files of yours
# appear on the start page.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$source_dir/build/release}" && pwd)
corpus=$(cd "${2:-$source_dir/../shared/corpus}" && pwd)
strata="$build/app/gui/strata"
samples="$source_dir/resources/samples"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data"

# A folder as a data engineer finds one after a copy: files and datasets of every format, a few
# of them damaged.
bucket="$scratch/bucket"
mkdir -p "$bucket/checkpoints" "$bucket/archives" "$bucket/tables"
cp "$samples/sample.zt" "$bucket/checkpoints/epoch-01.zt"
cp "$corpus/ztensor/valid/dense_raw.zt" "$bucket/checkpoints/epoch-02.zt"
cp "$corpus/ztensor/corrupt/bad_magic.zt" "$bucket/checkpoints/epoch-03.zt"
cp "$samples/sample.zs" "$bucket/archives/ngrams-00.zs"
cp "$corpus/zs/valid/binary-u64le.zs" "$bucket/archives/ngrams-01.zs"
cp "$corpus/zs/corrupt/data-payload-bitflip.zs" "$bucket/archives/ngrams-02.zs"
cp -r "$corpus/zds/valid/jsonl_two_collections" "$bucket/tables/reviews"
cp "$corpus/zds/valid/docs_mode.zds" "$bucket/tables/support-tickets.zds"
cp -r "$corpus/zds/corrupt/zdx_count_too_high" "$bucket/tables/reviews-old"
mkdir -p "$bucket/shards"
cp "$samples/sample.sidx" "$bucket/shards/shard-0000.sidx"
cp -r "$corpus/shardlake/root" "$bucket/vector-store"

# The compared pair: a copy of a corpus dataset where B changes two values of t03, drops t05,
# adds t99 and has no index for test.
a="$scratch/compare/A" b="$scratch/compare/B"
mkdir -p "$scratch/compare"
cp -r "$corpus/zds/valid/jsonl_two_collections" "$a"
cp -r "$a" "$b"
rm "$b/collections/test/meta/index.bin"
python3 - "$b/collections/train/meta/data.jsonl" <<'PY'
import json, sys
path = sys.argv[1]
rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
out = []
for row in rows:
    if row["_id"] == "t05":
        continue
    if row["_id"] == "t03":
        row["i"] = 33
        row["nested"] = {"l": [3, 7]}
    out.append(row)
out.append({"_id": "t99", "i": 99, "nested": {"l": []}})
with open(path, "w", encoding="utf-8") as f:
    for row in out:
        f.write(json.dumps(row, separators=(",", ":")) + "\n")
PY
rm -f "$b/collections/train/meta/index.bin"

shot() {  # shot SIZE NAME strata-arguments...
    local size=$1 name=$2
    shift 2
    mkdir -p "$here/$size"
    "$strata" --screenshot "$here/$size/$name.png" --screenshot-size "$size" "$@" 2>/dev/null
    echo "$size/$name.png"
}

for size in 1366x768 1920x1080; do
    shot "$size" start-page
    shot "$size" browser "$bucket"
    shot "$size" zs "$samples/sample.zs"
    shot "$size" zs-damaged "$corpus/zs/corrupt/data-payload-bitflip.zs"
    shot "$size" zs-records --tab Records "$samples/sample.zs"
    shot "$size" zds --tab Documents "$corpus/zds/valid/jsonl_two_collections"
    shot "$size" shardlake --tab "Storage root" "$corpus/shardlake/root"
    shot "$size" ozdf --tab Corpus "$corpus/ozdf/valid/handwritten/corpora/mixed"
    shot "$size" ztensor --tab Tensors "$samples/sample.zt"
    shot "$size" compare --compare "$a" "$b"
    shot "$size" repair --repair "$corpus/zs/corrupt/data-payload-bitflip.zs"
done
