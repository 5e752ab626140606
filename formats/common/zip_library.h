// libzip, opened when a ZIP archive is first checked or written rather than linked (see
// shared_library.h): only ZDS archives need it, and it brings libcrypto and libbz2 with it.
// <zip.h> still gives the types and constants; every call goes through the pointers below.
#pragma once

#include <zip.h>

namespace strata {

struct ZipLibrary {
    decltype(&::zip_open) open = nullptr;
    decltype(&::zip_open_from_source) openFromSource = nullptr;
    decltype(&::zip_discard) discard = nullptr;
    decltype(&::zip_close) close = nullptr;
    decltype(&::zip_get_num_entries) getNumEntries = nullptr;
    decltype(&::zip_get_error) getError = nullptr;
    decltype(&::zip_strerror) strerror = nullptr;
    decltype(&::zip_error_init) errorInit = nullptr;
    decltype(&::zip_error_init_with_code) errorInitWithCode = nullptr;
    decltype(&::zip_error_fini) errorFini = nullptr;
    decltype(&::zip_error_strerror) errorStrerror = nullptr;
    decltype(&::zip_error_code_zip) errorCodeZip = nullptr;
    decltype(&::zip_error_set) errorSet = nullptr;
    decltype(&::zip_error_to_data) errorToData = nullptr;
    decltype(&::zip_source_function_create) sourceFunctionCreate = nullptr;
    decltype(&::zip_source_free) sourceFree = nullptr;
    decltype(&::zip_source_seek_compute_offset) sourceSeekComputeOffset = nullptr;
    decltype(&::zip_source_make_command_bitmap) sourceMakeCommandBitmap = nullptr;
    decltype(&::zip_source_zip) sourceZip = nullptr;
    decltype(&::zip_source_file) sourceFile = nullptr;
    decltype(&::zip_stat_init) statInit = nullptr;
    decltype(&::zip_file_add) fileAdd = nullptr;
    decltype(&::zip_set_file_compression) setFileCompression = nullptr;
    decltype(&::zip_dir_add) dirAdd = nullptr;
    decltype(&::zip_register_progress_callback_with_state) registerProgressCallback = nullptr;
    decltype(&::zip_register_cancel_callback_with_state) registerCancelCallback = nullptr;
};

// libzip.so.4, loaded on the first call from any thread. Throws std::runtime_error naming the
// library when it cannot be loaded or lacks a function; every later call throws again.
const ZipLibrary& zipLibrary();

}  // namespace strata
