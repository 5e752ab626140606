# strata-cli zds pack / unpack / reindex / compact / convert on copies of corpus datasets: each
# result validates without errors and lists the same ids as its input.
#   -DCLI=<strata-cli> -DCORPUS=<corpus/zds> -DWORK=<scratch folder>
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

function(cli expect_exit out_var)
    execute_process(COMMAND "${CLI}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                    ERROR_VARIABLE err)
    if(NOT rc EQUAL expect_exit)
        message(FATAL_ERROR "strata-cli ${ARGN}: exit ${rc}, expected ${expect_exit}\n${out}\n${err}")
    endif()
    set(${out_var} "${out}${err}" PARENT_SCOPE)
endfunction()

function(expect_same_ids a b collection)
    cli(0 ids_a zds ls ${a} --collection ${collection})
    cli(0 ids_b zds ls ${b} --collection ${collection})
    if(NOT ids_a STREQUAL ids_b)
        message(FATAL_ERROR "${a} and ${b} list different ids in ${collection}:\n${ids_a}\n--\n${ids_b}")
    endif()
endfunction()

set(two ${CORPUS}/valid/jsonl_two_collections)

# pack → validate → unpack → same ids; unpack refuses a folder that is not empty.
cli(0 out zds pack ${two} ${WORK}/two.zds)
cli(0 out zds validate ${WORK}/two.zds)
expect_same_ids(${two} ${WORK}/two.zds train)
cli(0 out zds unpack ${WORK}/two.zds ${WORK}/unpacked)
cli(0 out zds validate ${WORK}/unpacked)
expect_same_ids(${two} ${WORK}/unpacked train)
expect_same_ids(${two} ${WORK}/unpacked test)
cli(2 out zds unpack ${WORK}/two.zds ${WORK}/unpacked)
if(NOT out MATCHES "not an empty folder")
    message(FATAL_ERROR "unpack into a full folder: ${out}")
endif()
cli(0 out zds pack ${CORPUS}/valid/docs_mode ${WORK}/docs.zds --deflate)
expect_same_ids(${CORPUS}/valid/docs_mode ${WORK}/docs.zds default)

# reindex repairs a damaged index.
file(COPY ${CORPUS}/corrupt/zdx_bad_magic DESTINATION ${WORK})
file(CHMOD_RECURSE ${WORK}/zdx_bad_magic DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE
     FILE_PERMISSIONS OWNER_READ OWNER_WRITE)
cli(1 out zds validate ${WORK}/zdx_bad_magic)
cli(0 out zds reindex ${WORK}/zdx_bad_magic)
cli(0 out zds validate ${WORK}/zdx_bad_magic)

# compact drops superseded lines; convert goes to docs/ and back. (train holds an index entry
# whose id is not its line's _id: compact indexes the line under its own _id, so only test is
# compared id for id.)
file(COPY ${two} DESTINATION ${WORK})
file(CHMOD_RECURSE ${WORK}/jsonl_two_collections DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE
     OWNER_EXECUTE FILE_PERMISSIONS OWNER_READ OWNER_WRITE)
set(copy ${WORK}/jsonl_two_collections)
cli(0 out zds compact ${copy})
cli(0 out zds validate ${copy})
expect_same_ids(${two} ${copy} test)
cli(0 out zds convert ${copy} --to docs --collection test)
cli(0 out zds validate ${copy})
if(NOT EXISTS ${copy}/collections/test/docs/t05.json)
    message(FATAL_ERROR "convert --to docs wrote no docs/t05.json")
endif()
cli(0 out zds convert ${copy} --to jsonl)
cli(0 out zds validate ${copy})
expect_same_ids(${two} ${copy} test)
cli(0 a zds get ${two} t05 --collection test)
cli(0 b zds get ${copy} t05 --collection test)
if(NOT a STREQUAL b)
    message(FATAL_ERROR "t05 changed in the round trip:\n${a}\n${b}")
endif()

# The same jobs on an archive rewrite it whole.
cli(0 out zds compact ${WORK}/two.zds)
cli(0 out zds validate ${WORK}/two.zds)
expect_same_ids(${two} ${WORK}/two.zds test)
file(REMOVE_RECURSE ${WORK})
