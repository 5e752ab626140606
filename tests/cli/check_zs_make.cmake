# strata-cli zs make end to end: every codec and both length-prefixed input modes round-trip
# through make → validate → dump; empty, unsorted, cut and clashing inputs, bad metadata and
# options are refused with the exit code of their kind and leave no file behind.   -DCLI=<strata-cli> -DWORKDIR=<scratch dir>
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}")
set(lines "")
foreach(i RANGE 1000 3999)
    string(APPEND lines "record-${i}\n")
endforeach()
file(WRITE "${WORKDIR}/sorted.txt" "${lines}")
file(SHA256 "${WORKDIR}/sorted.txt" input_sha)

function(run expected_exit)
    execute_process(COMMAND "${CLI}" ${ARGN} WORKING_DIRECTORY "${WORKDIR}"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL expected_exit)
        list(JOIN ARGN " " shown)
        message(FATAL_ERROR "strata-cli ${shown}: exit ${rc}, expected ${expected_exit}\n${out}\n${err}")
    endif()
    set(last_stderr "${err}" PARENT_SCOPE)
endfunction()

function(expect_dump zs_file expected_sha)
    run(0 zs dump -o "${zs_file}.dump" "${zs_file}")
    file(SHA256 "${WORKDIR}/${zs_file}.dump" sha)
    if(NOT sha STREQUAL expected_sha)
        message(FATAL_ERROR "${zs_file}: dump differs from the input")
    endif()
endfunction()

# Small blocks and a small branching factor give several data blocks and index levels.
foreach(codec none deflate lzma)
    run(0 zs make --codec=${codec} --approx-block-size=512 --branching-factor=2 {} sorted.txt
        ${codec}.zs)
    run(0 zs validate ${codec}.zs)
    expect_dump(${codec}.zs ${input_sha})
endforeach()

# Length-prefixed input: the dump of a file in each framing builds the same records again.
foreach(framing uleb128 u64le)
    run(0 zs dump --length-prefixed=${framing} -o ${framing}.bin none.zs)
    run(0 zs make --length-prefixed=${framing} -j 2 {} ${framing}.bin ${framing}.zs)
    run(0 zs validate ${framing}.zs)
    expect_dump(${framing}.zs ${input_sha})
endforeach()

# Refusals: nothing may be left behind.
file(WRITE "${WORKDIR}/empty.txt" "")
run(1 zs make {} empty.txt empty.zs)
if(NOT last_stderr MATCHES "empty")
    message(FATAL_ERROR "empty input: unclear message: ${last_stderr}")
endif()
file(WRITE "${WORKDIR}/unsorted.txt" "a\nb\na\n")
run(1 zs make {} unsorted.txt unsorted.zs)
if(NOT last_stderr MATCHES "record 3")
    message(FATAL_ERROR "unsorted input: the message does not name record 3: ${last_stderr}")
endif()
# Python keeps an integer beyond 64 bits exact; Strata could only store it rounded: refused.
run(2 zs make "{\"n\": 18446744073709551616}" sorted.txt wide.zs)
if(NOT last_stderr MATCHES "18446744073709551616 does not fit in 64 bits")
    message(FATAL_ERROR "wide metadata integer: unclear message: ${last_stderr}")
endif()
foreach(left empty.zs unsorted.zs wide.zs)
    if(EXISTS "${WORKDIR}/${left}")
        message(FATAL_ERROR "a refused make left ${left} behind")
    endif()
endforeach()
# Exit codes as for every command (app/cli/command_context.h): 1 when the input has errors (the
# records above, or cut short), 2 for what was asked (metadata, options) or the output file.
file(WRITE "${WORKDIR}/cut.txt" "a\nb")
run(1 zs make {} cut.txt cut.zs)
run(2 zs make "[1, 2]" sorted.txt list.zs)
run(2 zs make "{not json" sorted.txt bad-json.zs)
run(2 zs make --branching-factor=1 {} sorted.txt narrow.zs)
foreach(left cut.zs list.zs bad-json.zs narrow.zs)
    if(EXISTS "${WORKDIR}/${left}")
        message(FATAL_ERROR "a refused make left ${left} behind")
    endif()
endforeach()
run(2 zs make {} sorted.txt none.zs)  # the output exists already: it cannot be created
