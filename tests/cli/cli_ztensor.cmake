# strata-cli zTensor subcommands (included from tests/cli/CMakeLists.txt).
set(zt_data ${CMAKE_CURRENT_SOURCE_DIR}/zt_data)
set(zt_out ${CMAKE_CURRENT_BINARY_DIR}/zt)
file(MAKE_DIRECTORY ${zt_out})
set(zt_check ${CMAKE_CURRENT_SOURCE_DIR}/zt_dump_check.cmake)

# Runs `test` after `previous` (which writes the file it reads).
function(zt_after test previous)
    set_tests_properties(cli.${test} PROPERTIES DEPENDS cli.${previous})
endfunction()

# Import: fixtures written by hand (see zt_data/README.md), no corpus needed.
strata_cli_test(zt.import_npy EXIT 0 ARGS zt import ${zt_data}/zt_f32.npy ${zt_out}/f32.zt
                STDOUT "imported 1 tensor from npy")
strata_cli_test(zt.import_npy_values EXIT 0 ARGS zt dump --values zt_f32 ${zt_out}/f32.zt
                STDOUT "^0\t0\n1\t1.5\n2\t3\n3\t4.5\n4\t6\n5\t7.5\n$")
zt_after(zt.import_npy_values zt.import_npy)
strata_cli_test(zt.import_npy_fortran_be EXIT 0 ARGS zt import --encoding zstd --digest sha256
                ${zt_data}/zt_i32_fortran_be.npy ${zt_out}/i32.zt)
strata_cli_test(zt.import_npy_fortran_be_values EXIT 0 ARGS zt dump --values zt_i32_fortran_be
                ${zt_out}/i32.zt STDOUT "^0\t1\n1\t2\n2\t3\n3\t4\n4\t5\n5\t6\n$")
zt_after(zt.import_npy_fortran_be_values zt.import_npy_fortran_be)
strata_cli_test(zt.import_npy_fortran_be_valid EXIT 0 ARGS zt validate ${zt_out}/i32.zt)
zt_after(zt.import_npy_fortran_be_valid zt.import_npy_fortran_be)
strata_cli_test(zt.import_npz EXIT 0 ARGS zt import --digest crc32c ${zt_data}/zt_arrays.npz
                ${zt_out}/arrays.zt STDOUT "imported 3 tensor" STDERR "skipped member 'README.txt'")
strata_cli_test(zt.import_npz_info EXIT 0 ARGS zt info --json ${zt_out}/arrays.zt
                JSON "tensors.0.name=bias" "tensors.0.dtype=int64" "tensors.1.name=flags"
                     "tensors.1.dtype=bool" "tensors.2.name=weights" "tensors.2.shape.1=3")
zt_after(zt.import_npz_info zt.import_npz)
strata_cli_test(zt.import_npz_values EXIT 0 ARGS zt dump --values bias ${zt_out}/arrays.zt
                STDOUT "^0\t-1\n1\t0\n2\t7\n$")
zt_after(zt.import_npz_values zt.import_npz)
strata_cli_test(zt.import_safetensors EXIT 0 ARGS zt import ${zt_data}/zt_model.safetensors
                ${zt_out}/model.zt STDOUT "imported 2 tensors from safetensors")
strata_cli_test(zt.import_safetensors_info EXIT 0 ARGS zt info --json ${zt_out}/model.zt
                JSON "attributes.format=pt" "attributes.source=strata-test"
                     "tensors.0.name=brain" "tensors.0.dtype=bfloat16" "tensors.1.dtype=float16")
zt_after(zt.import_safetensors_info zt.import_safetensors)
strata_cli_test(zt.import_safetensors_values EXIT 0 ARGS zt dump --values half ${zt_out}/model.zt
                STDOUT "^0\t1\n1\t-2\n2\t0.5\n3\t65504\n$")
zt_after(zt.import_safetensors_values zt.import_safetensors)
strata_cli_test(zt.import_not_supported EXIT 2 ARGS zt import ${CMAKE_CURRENT_LIST_FILE}
                ${zt_out}/never.zt STDERR "not a .npy, .npz or safetensors file")
strata_cli_test(zt.import_bad_encoding EXIT 2 ARGS zt import --encoding lz4
                ${zt_data}/zt_f32.npy ${zt_out}/never.zt)

set(zt_corpus ${corpus}/ztensor)
if(NOT EXISTS ${zt_corpus}/expected/logical.jsonl)
    strata_corpus_skipped_test(cli.zt_corpus)
    return()
endif()
set(zt_valid ${zt_corpus}/valid)
set(zt_expected ${zt_corpus}/expected/logical.jsonl)

# `zt dump --jsonl` gives the corpus' expected logical contents for every valid file.
file(GLOB zt_valid_files ${zt_valid}/*.zt)
foreach(path IN LISTS zt_valid_files)
    get_filename_component(name ${path} NAME_WE)
    add_test(NAME cli.zt.dump_jsonl.${name}
             COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:strata-cli> -DFILE=${path}
                     -DEXPECTED=${zt_expected} -P ${zt_check})
    strata_cli_test(zt.validate.${name} EXIT 0 ARGS zt validate ${path})
endforeach()

strata_cli_test(zt.info EXIT 0 ARGS zt info ${zt_valid}/sparse_raw.zt
                STDOUT "tensors: 4\n.*tensor csr_f32: float32 \\[3, 4\\] sparse_csr raw stored 80")
strata_cli_test(zt.info_json EXIT 0 ARGS zt info --json ${zt_valid}/attrs_extra_keys.zt
                JSON "attributes.license=MIT" "tensors.0.name=x" "tensors.0.nbytes=24"
                     "tensors.0.components.data.offset=64")
strata_cli_test(zt.info_not_zt EXIT 2 ARGS zt info ${zt_corpus}/corrupt/bad_magic.zt
                STDERR "bad_magic\\.zt")
strata_cli_test(zt.validate_digest_mismatch EXIT 1 ARGS zt validate
                ${zt_corpus}/corrupt/digest_mismatch.zt STDOUT "ERROR ZT-DIGEST [^\n]*@64\\+24")
strata_cli_test(zt.validate_json EXIT 1 ARGS zt validate --json
                ${zt_corpus}/corrupt/digest_mismatch.zt
                JSON "format=zTensor" "summary.errors=1" "diagnostics.0.code=ZT-DIGEST")
strata_cli_test(zt.dump_text EXIT 0 ARGS zt dump --stats ${zt_valid}/single_f32_raw.zt
                STDOUT "sha256 [0-9a-f]+\tstats \\{\"count\":")
strata_cli_test(zt.dump_unreadable EXIT 1 ARGS zt dump --jsonl
                ${zt_corpus}/corrupt/zstd_wrong_shape.zt STDOUT "\"error\":")
strata_cli_test(zt.dump_values_sparse EXIT 0 ARGS zt dump --values csr_f32 --limit 3
                ${zt_valid}/sparse_zstd_crc32c.zt STDOUT "^0\t[^\n]+\n1\t[^\n]+\n2\t[^\n]+\n$")
strata_cli_test(zt.dump_values_missing EXIT 2 ARGS zt dump --values nope
                ${zt_valid}/single_f32_raw.zt STDERR "no tensor 'nope'")

# Convert: unchanged rewrites of reference-written files are byte-identical (checked in the
# formats tests); here re-encodings keep the logical contents and validate cleanly.
set(zt_dense ${zt_valid}/dense_raw.zt)
strata_cli_test(zt.convert_zstd EXIT 0 ARGS zt convert --encoding zstd --level 5 --digest sha256
                -j 2 ${zt_dense} ${zt_out}/dense_zstd.zt STDOUT "wrote [^\n]*16 tensor")
add_test(NAME cli.zt.convert_zstd_same
         COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:strata-cli> -DFILE=${zt_out}/dense_zstd.zt
                 -DOTHER=${zt_dense} -DMODE=same -P ${zt_check})
zt_after(zt.convert_zstd_same zt.convert_zstd)
strata_cli_test(zt.convert_zstd_valid EXIT 0 ARGS zt validate ${zt_out}/dense_zstd.zt)
zt_after(zt.convert_zstd_valid zt.convert_zstd)
strata_cli_test(zt.convert_zstd_info EXIT 0 ARGS zt info --json ${zt_out}/dense_zstd.zt
                STDOUT "\"encoding\": \"zstd\",\n *\"digest\": \"sha256:[0-9a-f]+\"")
zt_after(zt.convert_zstd_info zt.convert_zstd)
strata_cli_test(zt.convert_back EXIT 0 ARGS zt convert --encoding raw --digest none
                ${zt_out}/dense_zstd.zt ${zt_out}/dense_back.zt)
zt_after(zt.convert_back zt.convert_zstd)
add_test(NAME cli.zt.convert_back_same
         COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:strata-cli> -DFILE=${zt_out}/dense_back.zt
                 -DOTHER=${zt_dense} -DMODE=same -P ${zt_check})
zt_after(zt.convert_back_same zt.convert_back)
strata_cli_test(zt.convert_sparse EXIT 0 ARGS zt convert --encoding zstd --digest crc32c
                ${zt_valid}/sparse_raw.zt ${zt_out}/sparse.zt)
add_test(NAME cli.zt.convert_sparse_same
         COMMAND ${CMAKE_COMMAND} -DCLI=$<TARGET_FILE:strata-cli> -DFILE=${zt_out}/sparse.zt
                 -DOTHER=${zt_valid}/sparse_raw.zt -DMODE=same -P ${zt_check})
zt_after(zt.convert_sparse_same zt.convert_sparse)
strata_cli_test(zt.convert_edit EXIT 0 ARGS zt convert --rename x=y --set-attr owner=strata
                --remove-attr empty ${zt_valid}/attrs_extra_keys.zt ${zt_out}/edited.zt)
strata_cli_test(zt.convert_edit_info EXIT 0 ARGS zt info --json ${zt_out}/edited.zt
                JSON "tensors.0.name=y" "attributes.owner=strata" "attributes.license=MIT"
                     "facts.tensors=1")
zt_after(zt.convert_edit_info zt.convert_edit)
strata_cli_test(zt.convert_drop EXIT 0 ARGS zt convert --drop x ${zt_valid}/attrs_extra_keys.zt
                ${zt_out}/dropped.zt)
strata_cli_test(zt.convert_drop_info EXIT 0 ARGS zt info --json ${zt_out}/dropped.zt
                JSON "facts.tensors=0")
zt_after(zt.convert_drop_info zt.convert_drop)
strata_cli_test(zt.convert_digest_mismatch EXIT 2 ARGS zt convert
                ${zt_corpus}/corrupt/digest_mismatch.zt ${zt_out}/never.zt
                STDERR "digest mismatch")
strata_cli_test(zt.convert_digest_mismatch_no_verify EXIT 0 ARGS zt convert --no-verify
                --digest crc32c ${zt_corpus}/corrupt/digest_mismatch.zt ${zt_out}/refreshed.zt)
strata_cli_test(zt.convert_bad_zstd EXIT 2 ARGS zt convert --encoding raw
                ${zt_corpus}/corrupt/zstd_wrong_shape.zt ${zt_out}/never.zt)
strata_cli_test(zt.convert_unknown_tensor EXIT 2 ARGS zt convert --drop nope
                ${zt_valid}/single_f32_raw.zt ${zt_out}/never.zt STDERR "no tensor 'nope'")
strata_cli_test(zt.convert_duplicate_name EXIT 2 ARGS zt convert --rename t_int8=t_int16
                ${zt_dense} ${zt_out}/never.zt STDERR "two tensors would be named 't_int16'")
