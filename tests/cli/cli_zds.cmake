# strata-cli ZDS subcommands (included from tests/cli/CMakeLists.txt).
set(zds_corpus ${corpus}/zds)
if(NOT EXISTS ${zds_corpus}/README.md)
    strata_corpus_skipped_test(cli.zds_corpus)
    return()
endif()
set(zds_valid ${zds_corpus}/valid)
set(zds_corrupt ${zds_corpus}/corrupt)

# ls and get on every valid dataset read what the reference read. An archive is compared with
# the folder it was packed from: the reference cannot read JSONL inside a ZIP.
set(zds_expected_script ${CMAKE_CURRENT_SOURCE_DIR}/check_zds_expected.cmake)
file(GLOB zds_valid_names RELATIVE ${zds_valid} ${zds_valid}/*)
foreach(name IN LISTS zds_valid_names)
    string(REGEX REPLACE "\\.zds$" "" expected_name ${name})
    if(name STREQUAL "docs_mode_stored.zds")
        set(expected_name docs_mode)
    endif()
    # python_file_store has docs/ but no order.ids or doc_index.jsonl: the reference lists none
    # of its documents, Strata lists the files.
    set(extra OFF)
    if(name STREQUAL "python_file_store")
        set(extra ON)
    endif()
    add_test(NAME cli.zds.expected.${name}
             COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:strata-cli> -DDATASET=${zds_valid}/${name}
                     -DEXPECTED=${zds_corpus}/expected/${expected_name}.json
                     -DEXTRA_IDS_OK=${extra} -P ${zds_expected_script})
endforeach()

set(two ${zds_valid}/jsonl_two_collections)
strata_cli_test(zds.help EXIT 0 ARGS zds --help STDOUT "pack.*unpack.*reindex.*compact.*convert")
strata_cli_test(zds.ls_order EXIT 0 ARGS zds ls ${zds_valid}/docs_mode STDOUT "^doc_b\ndoc_a\ndoc_c\n$")
strata_cli_test(zds.ls_stored_order EXIT 0 ARGS zds ls ${two} --collection train
                STDOUT "^doc_001\ndoc_002\nunicode\nnumbers\nbigint\nupdated\n")
strata_cli_test(zds.ls_json EXIT 0 ARGS zds ls --json ${zds_valid}/docs_mode.zds
                STDOUT "^\\[\n  \"doc_b\",\n  \"doc_a\",\n  \"doc_c\"\n\\]\n$")
strata_cli_test(zds.ls_needs_collection EXIT 2 ARGS zds ls ${two}
                STDERR "no collection \"default\".*test, train")
strata_cli_test(zds.ls_unknown_collection EXIT 2 ARGS zds ls ${two} --collection nope
                STDERR "no collection \"nope\"")
strata_cli_test(zds.ls_missing EXIT 2 ARGS zds ls ${zds_valid}/no-such STDERR "no-such")
strata_cli_test(zds.get EXIT 0 ARGS zds get ${two} doc_001 --collection train
                STDOUT "^{\"score\":0.95,\"text\":\"Hello world\"}\n$")
strata_cli_test(zds.get_with_id EXIT 0 ARGS zds get ${two} doc_001 --collection train --with-id
                STDOUT "^{\"_id\":\"doc_001\",")
strata_cli_test(zds.get_raw_keeps_bytes EXIT 0 ARGS zds get ${two} bigint --collection train --raw
                STDOUT "123456789012345678901234567890")
strata_cli_test(zds.get_bigint_as_reference EXIT 0 ARGS zds get ${two} bigint --collection train
                STDOUT "\"big\":1.2345678901234568e\\+29")
strata_cli_test(zds.get_missing_id EXIT 1 ARGS zds get ${two} nope --collection train
                STDERR "no document \"nope\" in collection train")
strata_cli_test(zds.get_not_json EXIT 1 ARGS zds get ${zds_corrupt}/docs_doc_invalid_json
                bad STDERR "not valid JSON|no document")
strata_cli_test(zds.validate_valid EXIT 0 ARGS zds validate ${zds_valid}/docs_mode
                STDOUT "0 errors")
strata_cli_test(zds.validate_corrupt EXIT 1 ARGS zds validate ${zds_corrupt}/zdx_bad_magic
                STDOUT "ERROR ZDS-")
strata_cli_test(zds.validate_json EXIT 1 ARGS zds validate --json ${zds_corrupt}/zdx_bad_magic
                JSON "format=ZDS" "summary.completed=ON")
strata_cli_test(zds.search_field EXIT 0 ARGS zds search ${two} --collection train --field score
                --op gt 0.5 STDOUT "^doc_001\t0.95\n$")
strata_cli_test(zds.search_text EXIT 0 ARGS zds search ${zds_valid}/jsonl_100k --text --op contains
                "row 4242\"" STDOUT "^d004242\t")
strata_cli_test(zds.search_id_regex EXIT 0 ARGS zds search ${two} --collection test --id --op regex
                "^t0[12]$" STDOUT "^t01\tt01\nt02\tt02\n$")
strata_cli_test(zds.search_bad_regex EXIT 2 ARGS zds search ${two} --collection test --id --op regex
                "(" STDERR "bad regular expression")

# Jobs, each in a fresh folder under the build tree.
set(zds_jobs_script ${CMAKE_CURRENT_SOURCE_DIR}/check_zds_jobs.cmake)
add_test(NAME cli.zds.jobs
         COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:strata-cli> -DCORPUS=${zds_corpus}
                 -DWORK=${CMAKE_CURRENT_BINARY_DIR}/zds-jobs -P ${zds_jobs_script})
