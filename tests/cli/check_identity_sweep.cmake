# strata-cli over every valid input of every format: files strata-cli's own writers make here
# (zs make, zds reindex/pack/convert, shardlake build, zt import) and hand-written OZDF and ZDS
# text, plus, when the corpus is given, its valid files and folders. For each input A:
# `diff A A` and `diff --strict A A` exit 0 with no difference, and (for what can be repaired)
# `repair A --out R` exits 0 and `diff A R` exits 0.
#   -DCLI=<strata-cli> -DWORK=<scratch dir> -DZT_DATA=<tests/cli/zt_data> [-DCORPUS=<corpus>]
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
include("${CMAKE_CURRENT_LIST_DIR}/cli_run_function.cmake")

# ---- generated inputs -----------------------------------------------------------------------
set(generated "")

# ZS: sorted records with duplicates, metadata with a 64-bit integer and decimals, small blocks
# and a deep index, two codecs.
set(records "")
foreach(i RANGE 1 400)
    math(EXPR key "${i} * 7919 % 1000")
    list(APPEND records "key ${key}")
endforeach()
list(SORT records)
list(JOIN records "\n" text)
file(WRITE "${WORK}/records.txt" "${text}\n")
foreach(codec deflate lzma)
    run(0 zs make "{\"name\": \"sweep\", \"max\": 18446744073709551615, \"ratio\": 0.10, \"n\": [1, 2.5e3]}"
        records.txt gen-${codec}.zs --codec ${codec} --approx-block-size 300 --branching-factor 2)
    list(APPEND generated "gen-${codec}.zs")
endforeach()

# ZDS: two collections whose documents need exact numbers (past 64 bits, decimals written two
# ways), indexed; the same packed, and converted to docs/ files.
set(lines "")
foreach(i RANGE 1 30)
    string(APPEND lines "{\"_id\":\"d${i}\",\"big\":12345678901234567890123456789${i},\"x\":0.10,\"tags\":[\"a\",${i}],\"m\":{\"k\":null}}\n")
endforeach()
file(WRITE "${WORK}/dataset/collections/train/meta/data.jsonl" "${lines}")
file(WRITE "${WORK}/dataset/collections/test/meta/data.jsonl" "{\"_id\":\"t\",\"v\":1e2}\n")
run(0 zds reindex dataset)
run(0 zds pack dataset dataset.zds)
file(COPY "${WORK}/dataset/" DESTINATION "${WORK}/docs")
run(0 zds convert docs --to docs)
list(APPEND generated dataset dataset.zds docs)

# OZDF: a standalone document whose list repeats and omits item names, a directory document
# whose parts name an item '' and repeat a name, a corpus holding both.
file(WRITE "${WORK}/corpus/talk.ozdf"
     "#### TITLE\nA talk\n\n#### [TALK]\n==== Joe\nHi.\n\n==== Beth\nHello.\n\n==== Joe\nBye.\n\n====\nanonymous\n\n#### COMMENT\na note\n")
file(WRITE "${WORK}/corpus/book/_metadata.ozdf" "#### TITLE\nA book\n\n#### [[PARTS]]\n\n")
file(WRITE "${WORK}/corpus/book/PARTS-01.ozdp" "#### NAME\nOne\n\n#### DATA\nfirst\n\n")
file(WRITE "${WORK}/corpus/book/PARTS-02.ozdp" "#### NAME\n\n#### DATA\nnamed ''\n\n")
file(WRITE "${WORK}/corpus/book/PARTS-03.ozdp" "#### NAME\nOne\n\n#### DATA\nthe second One\n\n")
list(APPEND generated corpus/talk.ozdf corpus/book corpus)

# Shardlake: vectors with metadata, ingested and indexed twice.
set(vectors "")
foreach(i RANGE 0 199)
    math(EXPR a "${i} % 10")
    math(EXPR b "${i} % 7")
    string(APPEND vectors "{\"id\": ${i}, \"vector\": [0.${a}, 1.${b}, -${a}.5, ${b}], \"metadata\": {\"n\": ${i}}}\n")
endforeach()
file(WRITE "${WORK}/vectors.jsonl" "${vectors}")
run(0 shardlake build root --input vectors.jsonl --dataset-version ds --index-version idx-l2
    --metric euclidean --num-shards 3 --timestamp 2026-01-01T00:00:00Z --threads 1)
run(0 shardlake build root --dataset-version ds --index-version idx-cos --num-shards 2
    --timestamp 2026-01-02T00:00:00Z --threads 1)
list(APPEND generated root)

# zTensor: imported raw, and zstd with digests.
run(0 zt import "${ZT_DATA}/zt_f32.npy" f32.zt)
run(0 zt import --encoding zstd --digest crc32c "${ZT_DATA}/zt_arrays.npz" arrays.zt)
run(0 zt import --digest sha256 "${ZT_DATA}/zt_model.safetensors" model.zt)
list(APPEND generated f32.zt arrays.zt model.zt)

# ---- the corpus's valid inputs ----------------------------------------------------------------
set(valid "")
if(DEFINED CORPUS AND EXISTS "${CORPUS}/zs/valid")
    file(GLOB zs "${CORPUS}/zs/valid/*.zs")
    file(GLOB zds LIST_DIRECTORIES true "${CORPUS}/zds/valid/*")
    file(GLOB ozdf LIST_DIRECTORIES true "${CORPUS}/ozdf/valid/handwritten/docs/*"
         "${CORPUS}/ozdf/valid/handwritten/dirdocs/*" "${CORPUS}/ozdf/valid/handwritten/corpora/*"
         "${CORPUS}/ozdf/valid/written_by_reference/*")
    file(GLOB zt "${CORPUS}/ztensor/valid/*.zt")
    list(APPEND valid ${zs} ${zds} ${ozdf} ${zt} "${CORPUS}/shardlake/root"
         "${CORPUS}/shardlake/corrupt/ok_raw" "${CORPUS}/shardlake/corrupt/ok_pq"
         "${CORPUS}/zs/corrupt/header-extension-bytes.zs"
         "${CORPUS}/zs/corrupt/trailing-extension-block.zs"
         "${CORPUS}/zs/corrupt/index-before-children.zs")
    file(GLOB parts LIST_DIRECTORIES true "${CORPUS}/shardlake/root/indexes/*"
         "${CORPUS}/shardlake/root/datasets/*" "${CORPUS}/shardlake/root/indexes/*/shards/*.sidx")
    set(compared_only ${parts})
endif()

# ---- the sweep ------------------------------------------------------------------------------
set(n 0)
function(expect_identity input repairable)
    run(0 diff ${input} ${input})
    if(NOT last_out MATCHES "0 added, 0 removed, 0 changed, 0 moved, 0 stored differently")
        message(FATAL_ERROR "diff ${input} ${input} is not empty:\n${last_out}")
    endif()
    run(0 diff --strict ${input} ${input})
    if(NOT repairable)
        return()
    endif()
    math(EXPR next "${n} + 1")
    set(n ${next} PARENT_SCOPE)
    get_filename_component(ext "${input}" LAST_EXT)
    if(IS_DIRECTORY "${input}" OR IS_DIRECTORY "${WORK}/${input}")
        set(ext "")  # a folder: the repaired copy is a folder
    endif()
    set(out "repaired/out${n}${ext}")
    run(0 repair ${input} --out ${out})
    run(0 diff ${input} ${out})
endfunction()

file(MAKE_DIRECTORY "${WORK}/repaired")
foreach(input IN LISTS generated valid)
    expect_identity("${input}" ON)
endforeach()
foreach(input IN LISTS compared_only)
    expect_identity("${input}" OFF)
endforeach()
list(LENGTH generated made)
list(LENGTH valid corpus_inputs)
message(STATUS "${made} generated and ${corpus_inputs} corpus inputs equal themselves and repair to themselves")
