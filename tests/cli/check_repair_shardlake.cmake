# strata-cli repair on Shardlake storage roots from the corpus (copied, so outputs sit beside
# them): an intact root comes back whole (exit 0) and validates; a root whose shard was cut keeps
# the 12 records before the cut (exit 1), reports the 101 lost with their bytes and the manifest
# values that changed, writes a root that validates, refuses to replace it (exit 2) and prints
# JSON; a dry run writes nothing; a PQ shard whose fingerprint was altered is lost unless
# fingerprints are recomputed (then the new fingerprint is listed: exit 1); an index folder alone
# is refused (exit 2).
#   -DCLI=<strata-cli> -DWORK=<scratch dir> -DCORPUS=<corpus>/shardlake/corrupt
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
foreach(case ok_raw ok_pq shard_truncated)
    file(COPY "${CORPUS}/${case}" DESTINATION "${WORK}")
endforeach()

include("${CMAKE_CURRENT_LIST_DIR}/cli_run_function.cmake")

run(0 repair ok_raw --out whole)
if(NOT last_out MATCHES "Shardlake ok_raw: 600 vectors recovered, 0 losses, written to whole")
    message(FATAL_ERROR "unexpected summary:\n${last_out}")
endif()
run(0 validate whole)

run(1 repair shard_truncated --out saved --dry-run)
if(EXISTS "${WORK}/saved")
    message(FATAL_ERROR "a dry run wrote something")
endif()
run(1 repair shard_truncated --out saved)
if(NOT last_out MATCHES "lost    index idx-raw, shard 0 \\(indexes/idx-raw/shards/shard-0000.sidx\\): the file ends at byte 1000, inside record 12; records 12 to 112 \\(101 vectors\\) are lost")
    message(FATAL_ERROR "the cut not reported:\n${last_out}")
endif()
if(NOT last_out MATCHES "Shardlake shard_truncated: 499 vectors recovered, 2 losses, written to saved"
   OR NOT last_out MATCHES "lost    index idx-raw: manifest.json is written with 4 values other than the ones read")
    message(FATAL_ERROR "unexpected summary:\n${last_out}")
endif()
run(0 validate saved)
run(2 repair shard_truncated --out saved)
if(NOT last_err MATCHES "exists; a repair never replaces a file")
    message(FATAL_ERROR "no refusal:\n${last_err}")
endif()
run(1 repair --json shard_truncated --out saved2)
string(JSON items GET "${last_out}" items)
string(JSON recovered GET "${last_out}" recovered)
string(JSON offset GET "${last_out}" losses 0 offset)
string(JSON length GET "${last_out}" losses 0 length)
string(JSON file GET "${last_out}" losses 0 file)
if(NOT items STREQUAL "vectors" OR NOT recovered EQUAL 499 OR NOT offset EQUAL 960
   OR NOT length EQUAL 40 OR NOT file MATCHES "shard-0000.sidx$")
    message(FATAL_ERROR "unexpected JSON report:\n${last_out}")
endif()

# A PQ shard's records cannot be checked against the dataset: with its fingerprint altered
# nothing vouches for them.
file(READ "${WORK}/ok_pq/indexes/idx-pq/manifest.json" manifest)
string(JSON fingerprint GET "${manifest}" shards 1 sha256)
string(REPLACE "${fingerprint}" "0123456789abcdef" manifest "${manifest}")
file(CHMOD "${WORK}/ok_pq/indexes/idx-pq/manifest.json" PERMISSIONS OWNER_READ OWNER_WRITE)
file(WRITE "${WORK}/ok_pq/indexes/idx-pq/manifest.json" "${manifest}")
run(1 repair ok_pq --out pq1)
if(NOT last_out MATCHES "--recompute-digests keeps it")
    message(FATAL_ERROR "the lost shard not explained:\n${last_out}")
endif()
# Kept with a new fingerprint: the manifest then differs from the input's (exit 1, listed).
run(1 repair ok_pq --out pq2 --recompute-digests)
if(NOT last_out MATCHES "lost    index idx-pq: manifest.json is written with 1 value other than the one read: \\$.shards\\[1\\].sha256: \"0123456789abcdef\"")
    message(FATAL_ERROR "the new fingerprint not listed:\n${last_out}")
endif()
run(0 validate pq2)

run(2 repair ok_raw/indexes/idx-raw --out lone)
if(NOT last_err MATCHES "repair the storage root that holds it instead")
    message(FATAL_ERROR "an index folder alone not refused:\n${last_err}")
endif()
