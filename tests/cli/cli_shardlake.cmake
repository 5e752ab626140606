# strata-cli Shardlake subcommands (included from tests/cli/CMakeLists.txt).
set(sl_corpus ${corpus}/shardlake)
set(sl_root ${sl_corpus}/root)
set(sl_expected ${sl_corpus}/expected/queries.json)
set(sl_check ${CMAKE_CURRENT_SOURCE_DIR}/shardlake_query_check.cmake)

function(shardlake_query_test name index metric mode)
    add_test(NAME cli.shardlake_query_${name}
             COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:strata-cli> -DROOT=${sl_root}
                     -DEXPECTED=${sl_expected} -DINDEX=${index} -DMETRIC=${metric}
                     -DMODE=${mode} -P ${sl_check})
endfunction()

# Usage errors need no corpus.
strata_cli_test(shardlake_help EXIT 0 ARGS shardlake --help STDOUT "info.*validate.*query.*build")
strata_cli_test(shardlake_query_needs_index EXIT 2 ARGS shardlake query ${raw_folder}
                --vector [1] STDERR "index")
strata_cli_test(shardlake_query_nprobe_excludes_exact EXIT 2 ARGS shardlake query ${raw_folder}
                --index x --vector [1] --nprobe 2 --exact STDERR "excludes")
strata_cli_test(shardlake_info_not_a_folder EXIT 2 ARGS shardlake info ${raw_file}
                STDERR "not a folder")

if(EXISTS ${sl_expected})
    # Every query of expected/queries.json: each index with each metric, and the exact results.
    foreach(index idx-cosine idx-l2 idx-ip idx-pq)
        foreach(metric cosine euclidean inner_product)
            shardlake_query_test(${index}_${metric} ${index} ${metric} index)
        endforeach()
    endforeach()
    foreach(metric cosine euclidean inner_product)
        shardlake_query_test(exact_${metric} idx-pq ${metric} exact)
    endforeach()

    strata_cli_test(shardlake_info EXIT 0 ARGS shardlake info ${sl_root}
                    STDOUT "index idx-cosine: cosine, 16 dims, 4 shards, 2000 vectors.*alias latest -> idx-cosine")
    strata_cli_test(shardlake_info_json EXIT 0 ARGS shardlake info --json ${sl_root}
                    JSON "indexes.0.version=idx-cosine" "indexes.3.compression=pq8"
                         "aliases.2.alias=pq" "aliases.2.index_version=idx-pq")
    strata_cli_test(shardlake_validate_root EXIT 0 ARGS shardlake validate ${sl_root}
                    STDOUT "0 errors")
    strata_cli_test(shardlake_validate_index_json EXIT 0 ARGS shardlake validate --json
                    --index idx-pq ${sl_root} JSON "summary.errors=0")
    strata_cli_test(shardlake_validate_trailing EXIT 1 ARGS shardlake validate
                    ${sl_corpus}/corrupt/shard_trailing_bytes_fp_fixed STDOUT "ERROR SL-TRAILING")
    strata_cli_test(shardlake_query_alias_by_id EXIT 0 ARGS shardlake query ${sl_root}
                    --index latest --id 497 -k 1 --json STDOUT "\"id\": 497, \"score\": 0.0")
    strata_cli_test(shardlake_query_unknown_id EXIT 2 ARGS shardlake query ${sl_root}
                    --index idx-l2 --id 999999 STDERR "no vector with id 999999")
    strata_cli_test(shardlake_query_wrong_length EXIT 1 ARGS shardlake query ${sl_root}
                    --index idx-l2 --vector [1,2,3] STDERR "3 values")
    strata_cli_test(shardlake_query_nprobe_one EXIT 0 ARGS shardlake query ${sl_root}
                    --index idx-l2 --id 1 --nprobe 1 -k 2 STDOUT "^rank\tid\tscore\tshard\n1\t1\t0.0\t")
    strata_cli_test(shardlake_alias_refuses_escape EXIT 2 ARGS shardlake alias ${sl_root}
                    ../evil idx-l2 STDERR "alias name")
    strata_cli_test(shardlake_alias_refuses_unknown EXIT 2 ARGS shardlake alias ${sl_root}
                    latest idx-nope STDERR "no index version")

    # Build from the corpus input into a scratch root, then compare with the corpus root.
    set(sl_scratch ${CMAKE_CURRENT_BINARY_DIR}/shardlake-build)
    add_test(NAME cli.shardlake_build_matches_corpus
             COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:strata-cli> -DCORPUS=${sl_corpus}
                     -DSCRATCH=${sl_scratch} -P ${CMAKE_CURRENT_SOURCE_DIR}/shardlake_build_check.cmake)
else()
    strata_corpus_skipped_test(cli.shardlake_corpus)
endif()

# diff of Shardlake pieces from the corrupt corpus: single shards and index folders compare the
# vectors they store by id; dataset folders compare on their own; an unreadable shard is exit 2.
set(sl_corrupt ${sl_corpus}/corrupt)
if(EXISTS ${sl_corrupt}/shard_vector_value_changed_fp_fixed AND EXISTS ${sl_corrupt}/_base)
    set(sl_changed ${sl_corrupt}/shard_vector_value_changed_fp_fixed)
    strata_cli_test(diff_shardlake_shards EXIT 1 ARGS diff
                    ${sl_corrupt}/_base/indexes/idx-raw/shards/shard-0000.sidx
                    ${sl_changed}/indexes/idx-raw/shards/shard-0000.sidx
                    STDOUT "^changed  vectors/3: vector 3 changed, L2 distance 9.8129\n.*0 added, 0 removed, 1 changed")
    strata_cli_test(diff_shardlake_shard_itself EXIT 0 ARGS diff
                    ${sl_corrupt}/_base/indexes/idx-raw/shards/shard-0001.sidx
                    ${sl_corrupt}/_base/indexes/idx-raw/shards/shard-0001.sidx
                    STDOUT "0 added, 0 removed, 0 changed")
    strata_cli_test(diff_shardlake_index_vectors EXIT 1 ARGS diff --queries 0 --json
                    ${sl_corrupt}/_base/indexes/idx-raw ${sl_changed}/indexes/idx-raw
                    JSON "summary.changed=3" "differences.2.path=indexes/idx-raw/vectors/3"
                         "differences.2.fields.0.path=l2_distance"
                         "differences.2.fields.0.b=9.8129")
    strata_cli_test(diff_shardlake_raw_against_pq EXIT 1 ARGS diff --queries 0
                    ${sl_corrupt}/_base/indexes/idx-raw ${sl_corrupt}/_base/indexes/idx-pq
                    STDOUT "encoding indexes/idx-raw/vectors: 300 vectors stored as raw values")
    strata_cli_test(diff_shardlake_datasets EXIT 1 ARGS diff ${sl_corrupt}/_base/datasets/ds-small
                    ${sl_corrupt}/dataset_dims_mismatch/datasets/ds-small
                    STDOUT "^changed  datasets/ds-small/info.json: 1 value differs\n +\\$\\.dims: 16 → 8\n")
    strata_cli_test(diff_shardlake_bad_shard EXIT 2 ARGS diff
                    ${sl_corrupt}/_base/indexes/idx-raw/shards/shard-0000.sidx
                    ${sl_corrupt}/shard_bad_magic/indexes/idx-raw/shards/shard-0000.sidx
                    STDERR "shard B \\(shard-0000.sidx\\) cannot be read: shard does not start with its magic")
    strata_cli_test(diff_shardlake_dataset_with_index EXIT 2 ARGS diff
                    ${sl_corrupt}/_base/datasets/ds-small ${sl_corrupt}/_base/indexes/idx-raw
                    STDERR "two dataset folders or two .sidx shards")
else()
    strata_corpus_skipped_test(cli.diff_shardlake_corrupt)
endif()
