# strata-cli repair killed (SIGKILL) at several moments while it writes: whatever the moment, no
# file exists under the requested name unless it is the whole, valid repaired copy; what a killed
# repair leaves is its stage, which clean-leftovers recognises and removes.
#   -DCLI=<strata-cli> -DWORK=<scratch dir>
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND seq -f "record-%010.0f" 1 1500000 OUTPUT_FILE "${WORK}/sorted.txt"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "seq failed")
endif()
execute_process(COMMAND "${CLI}" zs make --codec deflate "{}" sorted.txt in.zs
                WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "zs make failed")
endif()
file(SIZE "${WORK}/in.zs" size)
math(EXPR cut "${size} * 9 / 10")
execute_process(COMMAND truncate -s ${cut} in.zs WORKING_DIRECTORY "${WORK}")

set(killed 0)
set(finished 0)
foreach(delay 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.9 1.2 1.6 2.2 3 4.5)
    set(out "out-${delay}.zs")
    execute_process(COMMAND timeout -s KILL ${delay} "${CLI}" repair in.zs --out ${out}
                    WORKING_DIRECTORY "${WORK}" RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
    if(rc MATCHES "killed|137")
        math(EXPR killed "${killed} + 1")
    else()
        math(EXPR finished "${finished} + 1")
    endif()
    if(EXISTS "${WORK}/${out}")
        execute_process(COMMAND "${CLI}" validate ${out} WORKING_DIRECTORY "${WORK}"
                        RESULT_VARIABLE valid OUTPUT_VARIABLE report)
        if(NOT valid EQUAL 0)
            message(FATAL_ERROR "after a repair ended by ${rc} at ${delay} s, ${out} exists "
                                "and does not validate:\n${report}")
        endif()
    elseif(rc EQUAL 1)
        message(FATAL_ERROR "the repair at ${delay} s finished (exit 1) without writing ${out}")
    endif()
endforeach()
file(GLOB stages "${WORK}/.*strata-repair-*")
list(LENGTH stages staged)
message(STATUS "${killed} repairs killed, ${finished} finished, ${staged} stages left")

execute_process(COMMAND "${CLI}" clean-leftovers . WORKING_DIRECTORY "${WORK}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE cleaned)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "clean-leftovers failed (${rc}):\n${cleaned}")
endif()
file(GLOB stages "${WORK}/.*strata-repair-*")
if(stages)
    message(FATAL_ERROR "stages left after clean-leftovers: ${stages}\n${cleaned}")
endif()
