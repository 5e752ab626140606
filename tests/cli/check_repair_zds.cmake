# strata-cli repair on a ZDS dataset whose index is intact but one live document's line is
# damaged in place and a garbage line was appended: the other documents are saved (exit 1), both
# losses are reported with their lines, the two lines go to the quarantine file beside the
# output, the output validates and lists the surviving documents, an existing output is never
# replaced (exit 2), and a dry run writes nothing. With --keep-superseded an older version of a
# document stays in data.jsonl (unindexed) and the live documents are the same. A complete
# repair (exit 0) reads the same as its input: `diff IN OUT` exits 0.
#   -DCLI=<strata-cli> -DWORK=<scratch dir>
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/in/collections/c/meta")
set(data "")
foreach(i RANGE 1 5)
    string(APPEND data "{\"_id\":\"d${i}\",\"v\":${i}}\n")
endforeach()
file(WRITE "${WORK}/in/collections/c/meta/data.jsonl" "${data}")

include("${CMAKE_CURRENT_LIST_DIR}/cli_run_function.cmake")

# A repaired dataset validates and lists the documents that survive the damage below.
function(expect_surviving_documents dataset)
    run(0 validate ${dataset})
    run(0 zds ls --json ${dataset})
    string(REGEX REPLACE "[ \n]" "" ids "${last_out}")
    if(NOT ids STREQUAL "[\"d1\",\"d2\",\"d4\",\"d5\"]")
        message(FATAL_ERROR "unexpected documents in ${dataset}: ${last_out}")
    endif()
endfunction()

run(0 zds reindex in)
# Intact, with a superseded line: exit 0, and the output reads the same (diff exits 0).
file(APPEND "${WORK}/in/collections/c/meta/data.jsonl" "{\"_id\":\"d1\",\"v\":\"old\"}\n")
run(0 repair in --out whole)
run(0 diff in whole)
file(WRITE "${WORK}/in/collections/c/meta/data.jsonl" "${data}")
# Damage: d3's line keeps its length but is no JSON any more; a garbage line follows the data.
string(REPLACE "\"v\":3}" "\"v\":3@" damaged "${data}")
file(WRITE "${WORK}/in/collections/c/meta/data.jsonl" "${damaged}garbage\n")

run(1 repair in --out saved --dry-run)
if(EXISTS "${WORK}/saved" OR EXISTS "${WORK}/saved.quarantine.jsonl")
    message(FATAL_ERROR "a dry run wrote something")
endif()
run(1 repair in --out saved)
if(NOT last_out MATCHES "lost    collection 'c': document 'd3' is lost: its line 3 \\(bytes 38 to 57\\) is not JSON")
    message(FATAL_ERROR "d3's loss not reported:\n${last_out}")
endif()
if(NOT last_out MATCHES "lost    collection 'c': line 6 \\(bytes 95 to 103\\) of data.jsonl is not JSON")
    message(FATAL_ERROR "the garbage line not reported:\n${last_out}")
endif()
if(NOT last_out MATCHES "ZDS in: 4 documents recovered, 2 losses, written to saved")
    message(FATAL_ERROR "unexpected summary:\n${last_out}")
endif()
expect_surviving_documents(saved)
file(STRINGS "${WORK}/saved.quarantine.jsonl" quarantined)
list(LENGTH quarantined n)
if(NOT n EQUAL 2 OR NOT quarantined MATCHES "\"line\":3" OR NOT quarantined MATCHES "\"text\":\"garbage\"")
    message(FATAL_ERROR "unexpected quarantine file:\n${quarantined}")
endif()
run(2 repair in --out saved)
run(1 repair --json in --out saved2)
if(NOT last_out MATCHES "\"schema\": \"strata.repair/1\"" OR NOT last_out MATCHES "\"items\": \"documents\"")
    message(FATAL_ERROR "no JSON report:\n${last_out}")
endif()

# Another d2 line appended that the index does not point at: a superseded line, dropped by
# default, kept (first, unindexed) with --keep-superseded.
file(APPEND "${WORK}/in/collections/c/meta/data.jsonl" "{\"_id\":\"d2\",\"v\":\"old\"}\n")
run(1 repair in --out dropped)
if(NOT last_out MATCHES "dropped line 7 \\(bytes 103 to 126\\): an older version of 'd2'")
    message(FATAL_ERROR "the superseded line is not reported as dropped:\n${last_out}")
endif()
run(1 repair in --out kept --keep-superseded)
if(NOT last_out MATCHES "kept 1 superseded or deleted line in data.jsonl without index entries")
    message(FATAL_ERROR "the superseded line is not reported as kept:\n${last_out}")
endif()
file(READ "${WORK}/kept/collections/c/meta/data.jsonl" kept)
if(NOT kept MATCHES "^{\"_id\":\"d2\",\"v\":\"old\"}\n")
    message(FATAL_ERROR "the superseded line is not kept first:\n${kept}")
endif()
expect_surviving_documents(kept)
