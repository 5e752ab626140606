# strata-cli opens libcurl, libcrypto, libzip and ICU with dlopen() when a command first needs
# them (formats/common/shared_library.h), never at start: linked, they were most of its
# start-up time.
#   -DCLI=<strata-cli>  -DWORK=<scratch folder>  -DLIBS=<soname>|...  -DLOCAL_FILE=<raw file>
#   -DZDS_ARCHIVE= -DZS_FILE= -DOZDF_FILE=   (corpus files; the checks using them skip if empty)
cmake_minimum_required(VERSION 3.25)
string(REPLACE "|" ";" libs "${LIBS}")

# Not linked: none of them among the libraries the dynamic loader maps at start.
execute_process(COMMAND ldd "${CLI}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ldd ${CLI} failed (${rc}): ${err}")
endif()
foreach(lib IN LISTS libs)
    string(FIND "${out}" "${lib}" at)
    if(NOT at EQUAL -1)
        message(FATAL_ERROR "strata-cli is linked with ${lib}; it must dlopen it when needed:\n${out}")
    endif()
endforeach()

# Not loaded either: with a broken copy of each first on the search path, --version and a
# command on a local raw file run as usual (a program linked with them would not even start),
# and a command that needs one fails with a message naming it.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
foreach(lib IN LISTS libs)
    file(WRITE "${WORK}/${lib}" "not a shared library\n")
endforeach()
function(run_cli expect_exit stdout_regex stderr_regex)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env "LD_LIBRARY_PATH=${WORK}" "${CLI}" ${ARGN}
                    RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
    set(context "strata-cli ${ARGN}\n--- exit ${code}\n--- stdout\n${out}\n--- stderr\n${err}")
    if(NOT code STREQUAL expect_exit)
        message(FATAL_ERROR "expected exit code ${expect_exit}\n${context}")
    endif()
    if(NOT out MATCHES "${stdout_regex}" OR NOT err MATCHES "${stderr_regex}")
        message(FATAL_ERROR "unexpected output\n${context}")
    endif()
endfunction()
run_cli(0 "^strata-cli [0-9]+\\.[0-9]+" "^$" --version)
run_cli(0 "^raw binary\n$" "^$" detect "${LOCAL_FILE}")
run_cli(2 "^$" "http://127\\.0\\.0\\.1:9/x\\.zs: cannot load libcurl\\.so\\.4" detect
        "http://127.0.0.1:9/x.zs")
if(ZDS_ARCHIVE)
    run_cli(2 "^$" "cannot load libzip\\.so\\.[0-9]+ " validate "${ZDS_ARCHIVE}")
endif()
if(ZS_FILE)
    run_cli(2 "^$" "cannot load libcrypto\\.so\\.[0-9]+ " validate "${ZS_FILE}")
endif()
if(OZDF_FILE)
    run_cli(2 "^$" "cannot load libicuuc\\.so\\.[0-9]+ " validate "${OZDF_FILE}")
endif()
