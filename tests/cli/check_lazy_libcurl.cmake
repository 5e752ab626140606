# strata-cli loads libcurl only when a command reads a remote file (formats/remote/
# curl_library.cpp): linked, libcurl and its ~30 dependencies made up half of every start.
#   -DCLI=<strata-cli>  -DWORK=<scratch folder>  -DLOCAL_FILE=<any local file>
cmake_minimum_required(VERSION 3.25)

# Not linked: no libcurl in the libraries the dynamic loader maps at start.
execute_process(COMMAND ldd "${CLI}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ldd ${CLI} failed (${rc}): ${err}")
endif()
if(out MATCHES "libcurl")
    message(FATAL_ERROR "strata-cli is linked with libcurl; it must dlopen it when needed:\n${out}")
endif()

# Not loaded either: with a broken libcurl.so.4 first on the search path, commands on local
# files run as usual (a binary linked with libcurl would not even start), and a URL fails with
# a message that names the library.
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
file(WRITE "${WORK}/libcurl.so.4" "not a shared library\n")
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
