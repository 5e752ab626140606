# Replays one recorded command-line run against strata-cli and compares the exit code and the
# sha256 of stdout with the recording.
#   -DCLI=<strata-cli> -DRUN=<recorded .txt> -DWORKDIR=<dir the recording ran in>
#   -DGROUP=<strata-cli group replacing the recorded program, e.g. zs>
#   -DEXPECT_EXIT=<n>   (optional: where Strata deliberately exits differently)
#   -DIGNORE_STDOUT=ON  (optional: where the recording has no usable output, e.g. a crash)
# A recording starts "$ <program> <args...>", then "exit=<n>", then
# "--stdout (<n> bytes, sha256 <hex>)--". Arguments are split at spaces and passed verbatim.
cmake_minimum_required(VERSION 3.25)

file(STRINGS "${RUN}" header LIMIT_COUNT 3)
list(GET header 0 command_line)
list(GET header 1 exit_line)
list(GET header 2 stdout_line)
string(REGEX REPLACE "^\\$ [^ ]+ ?" "" arg_text "${command_line}")
string(REPLACE " " ";" args "${arg_text}")
string(REGEX REPLACE "^exit=" "" recorded_exit "${exit_line}")
string(REGEX MATCH "sha256 ([0-9a-f]+)" _ "${stdout_line}")
set(recorded_sha "${CMAKE_MATCH_1}")
if(NOT DEFINED EXPECT_EXIT OR EXPECT_EXIT STREQUAL "")
    set(EXPECT_EXIT ${recorded_exit})
endif()

get_filename_component(run_name "${RUN}" NAME_WE)
set(stdout_file "${CMAKE_CURRENT_BINARY_DIR}/replay-${GROUP}-${run_name}.out")
execute_process(COMMAND "${CLI}" ${GROUP} ${args} WORKING_DIRECTORY "${WORKDIR}"
                RESULT_VARIABLE exit_code OUTPUT_FILE "${stdout_file}" ERROR_VARIABLE err)
file(SHA256 "${stdout_file}" sha)

set(context "strata-cli ${GROUP} ${arg_text}\n--- exit ${exit_code}\n--- stderr\n${err}")
if(NOT exit_code STREQUAL EXPECT_EXIT)
    message(FATAL_ERROR "expected exit code ${EXPECT_EXIT}\n${context}")
endif()
if(NOT IGNORE_STDOUT AND NOT sha STREQUAL recorded_sha)
    message(FATAL_ERROR "stdout differs from the recording (sha256 ${sha}, recorded "
                        "${recorded_sha}); it is in ${stdout_file}\n${context}")
endif()
