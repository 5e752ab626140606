# Runs strata-cli once and checks its exit code, output and (optionally) JSON fields.
#   -DCLI=<strata-cli>  -DARGS=a|b|c  -DEXPECT_EXIT=<n>
#   -DSTDOUT_REGEX=<regex> -DSTDERR_REGEX=<regex>   (optional)
#   -DJSON_CHECKS=key.path=value|...                 (optional; stdout must be one JSON object;
#                                                     array elements by index: diagnostics.0.code)
cmake_minimum_required(VERSION 3.25)

string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND "${CLI}" ${args}
                RESULT_VARIABLE exit_code OUTPUT_VARIABLE out ERROR_VARIABLE err)

set(context "strata-cli ${args}\n--- exit ${exit_code}\n--- stdout\n${out}\n--- stderr\n${err}")
if(NOT exit_code STREQUAL EXPECT_EXIT)
    message(FATAL_ERROR "expected exit code ${EXPECT_EXIT}\n${context}")
endif()
if(DEFINED STDOUT_REGEX AND NOT STDOUT_REGEX STREQUAL "" AND NOT out MATCHES "${STDOUT_REGEX}")
    message(FATAL_ERROR "stdout does not match '${STDOUT_REGEX}'\n${context}")
endif()
if(DEFINED STDERR_REGEX AND NOT STDERR_REGEX STREQUAL "" AND NOT err MATCHES "${STDERR_REGEX}")
    message(FATAL_ERROR "stderr does not match '${STDERR_REGEX}'\n${context}")
endif()

if(DEFINED JSON_CHECKS AND NOT JSON_CHECKS STREQUAL "")
    string(JSON type ERROR_VARIABLE json_error TYPE "${out}")
    if(json_error OR NOT type STREQUAL "OBJECT")
        message(FATAL_ERROR "stdout is not one JSON object (${json_error})\n${context}")
    endif()
    string(REPLACE "|" ";" checks "${JSON_CHECKS}")
    foreach(check IN LISTS checks)
        string(FIND "${check}" "=" eq)
        string(SUBSTRING "${check}" 0 ${eq} key)
        math(EXPR value_start "${eq} + 1")
        string(SUBSTRING "${check}" ${value_start} -1 expected)
        string(REPLACE "." ";" key_path "${key}")
        string(JSON actual ERROR_VARIABLE json_error GET "${out}" ${key_path})
        if(json_error OR NOT actual STREQUAL expected)
            message(FATAL_ERROR
                    "JSON ${key}: expected '${expected}', got '${actual}' ${json_error}\n${context}")
        endif()
    endforeach()
endif()
