# Runs `strata-cli ozdf dump PATH` and checks that its JSON equals the `result` object of the
# reference's dump (member order aside). Used by tests/cli/cli_ozdf.cmake.
#   -DCLI=<strata-cli> -DINPUT=<path> -DEXPECTED=<expected json file>
cmake_minimum_required(VERSION 3.25)

execute_process(COMMAND "${CLI}" ozdf dump "${INPUT}"
                RESULT_VARIABLE exit_code OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT exit_code STREQUAL "0")
    message(FATAL_ERROR "strata-cli ozdf dump ${INPUT}: exit ${exit_code}\n${err}")
endif()
file(READ "${EXPECTED}" expected_text)
string(JSON result ERROR_VARIABLE json_error GET "${expected_text}" result)
if(json_error)
    message(FATAL_ERROR "${EXPECTED}: no result object (${json_error})")
endif()
string(JSON equal ERROR_VARIABLE json_error EQUAL "${out}" "${result}")
if(json_error OR NOT equal)
    message(FATAL_ERROR "dump of ${INPUT} differs from ${EXPECTED} ${json_error}\n"
                        "--- got\n${out}\n--- expected\n${result}")
endif()
