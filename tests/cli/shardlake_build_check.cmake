# Builds the corpus indexes from the corpus input with strata-cli shardlake build and checks the
# result byte for byte against the reference-made root (manifests apart from the build time).
#   -DCLI=<strata-cli> -DCORPUS=<corpus/shardlake> -DSCRATCH=<scratch folder>
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${SCRATCH}")
function(run)
    execute_process(COMMAND "${CLI}" ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out
                    ERROR_VARIABLE err)
    if(NOT code EQUAL 0)
        message(FATAL_ERROR "strata-cli ${ARGN}: exit ${code}\n${out}\n${err}")
    endif()
endfunction()
run(shardlake build "${SCRATCH}" --input "${CORPUS}/input/vectors.jsonl" --dataset-version ds-v1
    --embedding-version emb-v1 --index-version idx-cosine --metric cosine --num-shards 4)
run(shardlake build "${SCRATCH}" --dataset-version ds-v1 --index-version idx-l2
    --metric euclidean --num-shards 3 --nprobe 3)
run(shardlake build "${SCRATCH}" --dataset-version ds-v1 --index-version idx-ip
    --metric inner-product --num-shards 4 --nprobe 4 --threads 1)
run(shardlake alias "${SCRATCH}" latest idx-cosine)

set(same_files datasets/ds-v1/vectors.jsonl datasets/ds-v1/metadata.json aliases/latest.json)
foreach(index idx-cosine idx-l2 idx-ip)
    file(GLOB shards RELATIVE "${CORPUS}/root" "${CORPUS}/root/indexes/${index}/shards/*.sidx")
    list(APPEND same_files ${shards} indexes/${index}/coarse_quantizer.cq)
endforeach()
foreach(f IN LISTS same_files)
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${SCRATCH}/${f}"
                    "${CORPUS}/root/${f}" RESULT_VARIABLE differs)
    if(differs)
        message(FATAL_ERROR "${f} differs from the corpus root")
    endif()
endforeach()

# Manifests and the dataset info: equal once the times are masked.
foreach(f indexes/idx-cosine/manifest.json indexes/idx-l2/manifest.json
          indexes/idx-ip/manifest.json datasets/ds-v1/info.json)
    file(READ "${SCRATCH}/${f}" ours)
    file(READ "${CORPUS}/root/${f}" theirs)
    foreach(var ours theirs)
        string(REGEX REPLACE "\"(built_at|ingested_at)\": \"[^\"]*\"" "\"\\1\": T" ${var}
                             "${${var}}")
        string(REGEX REPLACE "\"build_duration_secs\": [0-9.e-]+" "\"build_duration_secs\": D"
                             ${var} "${${var}}")
    endforeach()
    if(NOT ours STREQUAL theirs)
        message(FATAL_ERROR "${f} differs from the corpus root beyond the build time")
    endif()
endforeach()

execute_process(COMMAND "${CLI}" shardlake validate "${SCRATCH}" RESULT_VARIABLE code
                OUTPUT_VARIABLE out)
if(NOT code EQUAL 0)
    message(FATAL_ERROR "the built root does not validate:\n${out}")
endif()
