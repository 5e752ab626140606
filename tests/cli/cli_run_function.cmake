# run(EXPECTED_EXIT ARG...): runs ${CLI} with the arguments in ${WORK}, fails the script unless
# it exits with EXPECTED_EXIT, and leaves its stdout and stderr in last_out and last_err.
# Included by the check_repair_*.cmake scripts.
function(run expected_exit)
    execute_process(COMMAND "${CLI}" ${ARGN} WORKING_DIRECTORY "${WORK}"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL expected_exit)
        list(JOIN ARGN " " shown)
        message(FATAL_ERROR "strata-cli ${shown}: exit ${rc}, expected ${expected_exit}\n${out}\n${err}")
    endif()
    set(last_out "${out}" PARENT_SCOPE)
    set(last_err "${err}" PARENT_SCOPE)
endfunction()
