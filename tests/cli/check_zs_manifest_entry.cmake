# Checks strata-cli against one entry of the ZS corpus manifest: dump bytes (sha256), info JSON,
# metadata-only info JSON, validate exit code and output.
#   -DCLI=<strata-cli> -DMANIFEST=<manifest.json> -DINDEX=<entry> -DWORKDIR=<corpus zs dir>
cmake_minimum_required(VERSION 3.25)

file(READ "${MANIFEST}" manifest)
string(JSON entry GET "${manifest}" files ${INDEX})
string(JSON file GET "${entry}" file)

function(fail what)
    message(FATAL_ERROR "${file}: ${what}")
endfunction()

# dump
set(dump_args "")
string(JSON arg_count LENGTH "${entry}" dump_args)
if(arg_count GREATER 0)
    math(EXPR last "${arg_count} - 1")
    foreach(i RANGE ${last})
        string(JSON arg GET "${entry}" dump_args ${i})
        list(APPEND dump_args "${arg}")
    endforeach()
endif()
get_filename_component(name "${file}" NAME_WE)
set(out "${CMAKE_CURRENT_BINARY_DIR}/manifest-${name}.dump")
execute_process(COMMAND "${CLI}" zs dump ${dump_args} "${file}" WORKING_DIRECTORY "${WORKDIR}"
                RESULT_VARIABLE rc OUTPUT_FILE "${out}" ERROR_VARIABLE err)
file(SHA256 "${out}" sha)
string(JSON expected_sha GET "${entry}" dump_sha256)
if(NOT rc EQUAL 0 OR NOT sha STREQUAL expected_sha)
    fail("zs dump ${dump_args}: exit ${rc}, sha256 ${sha}, expected ${expected_sha}\n${err}")
endif()

# info and info --metadata-only: the same JSON values as the reference's.
function(check_json label key)
    execute_process(COMMAND "${CLI}" zs info ${ARGN} "${file}" WORKING_DIRECTORY "${WORKDIR}"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE got ERROR_VARIABLE err)
    string(JSON expected GET "${entry}" ${key})
    string(JSON same ERROR_VARIABLE json_error EQUAL "${got}" "${expected}")
    if(NOT rc EQUAL 0 OR json_error OR NOT same)
        fail("${label}: exit ${rc} ${json_error}\n--- got\n${got}\n--- expected\n${expected}\n${err}")
    endif()
endfunction()
check_json("zs info" info)
check_json("zs info -m" info_metadata_only -m)

# validate
execute_process(COMMAND "${CLI}" zs validate "${file}" WORKING_DIRECTORY "${WORKDIR}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE got ERROR_VARIABLE err)
string(JSON expected_exit GET "${entry}" validate_exit)
string(JSON expected_out GET "${entry}" validate_stdout)
if(NOT rc EQUAL expected_exit OR NOT got STREQUAL expected_out)
    fail("zs validate: exit ${rc} (expected ${expected_exit})\n${got}\n${err}")
endif()
