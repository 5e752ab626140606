# strata-cli OZDF subcommands (included from tests/cli/CMakeLists.txt).
set(ozdf_corpus ${corpus}/ozdf)
set(ozdf_dump_check ${CMAKE_SOURCE_DIR}/tests/formats/ozdf/ozdf_cli_dump_check.cmake)
if(EXISTS ${ozdf_corpus}/expected/index.json)
    # `ozdf dump` prints what the reference read, for every valid input of the corpus.
    file(READ ${ozdf_corpus}/expected/index.json ozdf_index)
    string(JSON ozdf_cases GET "${ozdf_index}" cases)
    string(JSON ozdf_count LENGTH "${ozdf_cases}")
    math(EXPR ozdf_last "${ozdf_count} - 1")
    set(ozdf_empty_corpus ${CMAKE_CURRENT_BINARY_DIR}/ozdf-empty-corpus)
    file(MAKE_DIRECTORY ${ozdf_empty_corpus})
    foreach(i RANGE ${ozdf_last})
        string(JSON input GET "${ozdf_cases}" ${i} input)
        string(JSON expected GET "${ozdf_cases}" ${i} expected)
        string(REGEX REPLACE "^corpus/" "${ozdf_corpus}/" input_path "${input}")
        if(NOT EXISTS ${input_path})
            set(input_path ${ozdf_empty_corpus})  # git keeps no empty folders
        endif()
        string(REGEX REPLACE "^corpus/valid/" "" test_name "${input}")
        string(REGEX REPLACE "[^A-Za-z0-9_.-]" "_" test_name "${test_name}")
        add_test(NAME cli.ozdf_dump.${test_name}
                 COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:strata-cli> -DINPUT=${input_path}
                         -DEXPECTED=${ozdf_corpus}/${expected} -P ${ozdf_dump_check})
    endforeach()

    set(ozdf_mixed ${ozdf_corpus}/valid/handwritten/corpora/mixed)
    set(ozdf_doc ${ozdf_corpus}/valid/handwritten/docs/two_blocks.ozdf)
    set(ozdf_bad ${ozdf_corpus}/corrupt/content_before_first_header.ozdf)
    strata_cli_test(ozdf_dump_corrupt EXIT 1 ARGS ozdf dump ${ozdf_bad} JSON "kind=document")
    strata_cli_test(ozdf_dump_missing EXIT 2 ARGS ozdf dump ${missing} STDERR "no-such-file")
    strata_cli_test(ozdf_validate_ok EXIT 0 ARGS ozdf validate ${ozdf_mixed}
                    STDOUT "0 errors")
    strata_cli_test(ozdf_validate_corrupt EXIT 1 ARGS ozdf validate ${ozdf_bad}
                    STDOUT "ERROR OZDF-CONTENT-BEFORE-HEADER")
    strata_cli_test(ozdf_validate_json EXIT 1 ARGS ozdf validate --json ${ozdf_bad}
                    JSON "accepted=OFF" "diagnostics.0.code=OZDF-CONTENT-BEFORE-HEADER")
    # A folder of part files without _metadata.ozdf: refused as the document that lost it,
    # and a warning when it sits in a corpus (which the reference still loads).
    set(ozdf_lost ${ozdf_corpus}/corrupt/corpus_dir_missing_metadata)
    strata_cli_test(ozdf_validate_parts_without_metadata EXIT 1 ARGS ozdf validate ${ozdf_lost}/doc1
                    STDOUT "ERROR OZDF-PARTS-WITHOUT-METADATA [^\n]*doc1: ")
    strata_cli_test(validate_ozdf_parts_without_metadata EXIT 1 ARGS validate --json ${ozdf_lost}/doc1
                    JSON "format=OZDF" "diagnostics.0.code=OZDF-PARTS-WITHOUT-METADATA"
                         "diagnostics.0.severity=error")
    strata_cli_test(ozdf_validate_corpus_parts_without_metadata EXIT 0 ARGS ozdf validate ${ozdf_lost}
                    STDOUT "WARNING OZDF-PARTS-WITHOUT-METADATA [^\n]*doc1: ")
    strata_cli_test(ozdf_fmt_check_canonical EXIT 0 ARGS ozdf fmt --check
                    ${ozdf_corpus}/expected/resaved/api_corpus STDOUT "0 files not canonical")
    strata_cli_test(ozdf_fmt_check_handwritten EXIT 1 ARGS ozdf fmt --check ${ozdf_doc}
                    STDOUT "would rewrite .*two_blocks\\.ozdf")
    strata_cli_test(ozdf_fmt_refuses_corrupt EXIT 1 ARGS ozdf fmt ${ozdf_bad}
                    STDERR "has errors")
    strata_cli_test(ozdf_export_stdout EXIT 0 ARGS ozdf export ${ozdf_doc}
                    JSON "filename=two_blocks.ozdf" "elements.0.kind=block")

    # fmt, export and import on a scratch copy: fmt makes the copy canonical, export + import
    # gives a corpus that fmt --check finds canonical and that dumps like the input.
    set(ozdf_scratch ${CMAKE_CURRENT_BINARY_DIR}/ozdf-scratch)
    add_test(NAME cli.ozdf_scratch_setup
             COMMAND sh -c "rm -rf '${ozdf_scratch}' && mkdir -p '${ozdf_scratch}' && cp -R '${ozdf_mixed}' '${ozdf_scratch}/mixed'")
    set_tests_properties(cli.ozdf_scratch_setup PROPERTIES FIXTURES_SETUP ozdf_scratch)
    strata_cli_test(ozdf_fmt_rewrites EXIT 0 ARGS ozdf fmt ${ozdf_scratch}/mixed
                    STDOUT "files? rewritten")
    strata_cli_test(ozdf_fmt_then_canonical EXIT 0 ARGS ozdf fmt --check ${ozdf_scratch}/mixed
                    STDOUT "^0 files not canonical")
    set_tests_properties(cli.ozdf_fmt_then_canonical PROPERTIES DEPENDS cli.ozdf_fmt_rewrites)
    strata_cli_test(ozdf_export_file EXIT 0 ARGS ozdf export ${ozdf_mixed}
                    -o ${ozdf_scratch}/mixed.jsonl STDERR "documents? exported")
    strata_cli_test(ozdf_import EXIT 0 ARGS ozdf import ${ozdf_scratch}/mixed.jsonl
                    ${ozdf_scratch}/imported STDOUT "documents?, [0-9]+ files? written")
    set_tests_properties(cli.ozdf_import PROPERTIES DEPENDS cli.ozdf_export_file)
    add_test(NAME cli.ozdf_import_reads_back
             COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:strata-cli>
                     -DINPUT=${ozdf_scratch}/imported
                     -DEXPECTED=${ozdf_corpus}/expected/handwritten/corpora/mixed.json
                     -P ${ozdf_dump_check})
    set_tests_properties(cli.ozdf_import_reads_back PROPERTIES DEPENDS cli.ozdf_import)
    set_tests_properties(cli.ozdf_fmt_rewrites cli.ozdf_fmt_then_canonical cli.ozdf_export_file
                         cli.ozdf_import cli.ozdf_import_reads_back
                         PROPERTIES FIXTURES_REQUIRED ozdf_scratch)
    strata_cli_test(ozdf_import_into_nonempty EXIT 2 ARGS ozdf import
                    ${ozdf_scratch}/mixed.jsonl ${ozdf_mixed} STDERR "not an empty folder")
    set_tests_properties(cli.ozdf_import_into_nonempty PROPERTIES DEPENDS cli.ozdf_export_file)
else()
    strata_corpus_skipped_test(cli.ozdf_corpus)
endif()
