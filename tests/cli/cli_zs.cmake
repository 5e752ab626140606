# strata-cli ZS subcommands (included from tests/cli/CMakeLists.txt).
set(zs_corpus ${corpus}/zs)
if(NOT EXISTS ${zs_corpus}/manifest.json)
    strata_corpus_skipped_test(cli.zs_corpus)
    return()
endif()

# Recorded runs of the reference `zs` tool (corpus cli/): the same arguments must give the same
# exit code and byte-identical stdout. Help texts, runs through a shell, remote files and runs
# writing to temporary paths are not replayed.
set(replay_script ${CMAKE_CURRENT_SOURCE_DIR}/replay_recorded_run.cmake)
file(GLOB zs_recorded_runs RELATIVE ${zs_corpus}/cli ${zs_corpus}/cli/*.txt)
foreach(run IN LISTS zs_recorded_runs)
    file(STRINGS ${zs_corpus}/cli/${run} first_line LIMIT_COUNT 1)
    if(NOT first_line MATCHES "^\\$ zs (dump|info|validate) " OR first_line MATCHES "--help"
       OR first_line MATCHES "<tmp>|http:")
        continue()
    endif()
    get_filename_component(name ${run} NAME_WE)
    # The reference crashes on a prefix ending in 0xff (exit 1, no output); Strata prints the
    # records with that prefix and succeeds.
    set(expect_exit "")
    set(ignore_stdout OFF)
    if(name STREQUAL "dump-prefix-ends-ff")
        set(expect_exit 0)
        set(ignore_stdout ON)
    endif()
    add_test(NAME cli.zs.recorded.${name}
             COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:strata-cli> -DGROUP=zs
                     -DRUN=${zs_corpus}/cli/${run} -DWORKDIR=${zs_corpus}
                     -DEXPECT_EXIT=${expect_exit} -DIGNORE_STDOUT=${ignore_stdout} -P ${replay_script})
endforeach()

# Every valid corpus file: `zs dump` (with the manifest's dump arguments) is byte-identical to
# the reference's dump, `zs info` prints the same JSON object, `zs validate` agrees.
set(zs_check_script ${CMAKE_CURRENT_SOURCE_DIR}/check_zs_manifest_entry.cmake)
file(READ ${zs_corpus}/manifest.json zs_manifest)
string(JSON zs_count LENGTH "${zs_manifest}" files)
math(EXPR zs_last "${zs_count} - 1")
foreach(i RANGE ${zs_last})
    string(JSON file GET "${zs_manifest}" files ${i} file)
    get_filename_component(name ${file} NAME_WE)
    add_test(NAME cli.zs.manifest.${name}
             COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:strata-cli>
                     -DMANIFEST=${zs_corpus}/manifest.json -DINDEX=${i} -DWORKDIR=${zs_corpus}
                     -P ${zs_check_script})
endforeach()

# zs make: round trip, refusals.
set(zs_make_script ${CMAKE_CURRENT_SOURCE_DIR}/check_zs_make.cmake)
add_test(NAME cli.zs.make
         COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:strata-cli>
                 -DWORKDIR=${CMAKE_CURRENT_BINARY_DIR}/zs-make -P ${zs_make_script})
