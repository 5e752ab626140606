#include "zip_library.h"

#include <string>

#include "shared_library.h"

namespace strata {

namespace {

using Loaded = LoadedFunctions<ZipLibrary>;

Loaded load() {
    Loaded out;
    SharedLibrary library("libzip.so.4");
    ZipLibrary& f = out.functions;
    library.resolve("zip_open", f.open);
    library.resolve("zip_open_from_source", f.openFromSource);
    library.resolve("zip_discard", f.discard);
    library.resolve("zip_close", f.close);
    library.resolve("zip_get_num_entries", f.getNumEntries);
    library.resolve("zip_get_error", f.getError);
    library.resolve("zip_strerror", f.strerror);
    library.resolve("zip_error_init", f.errorInit);
    library.resolve("zip_error_init_with_code", f.errorInitWithCode);
    library.resolve("zip_error_fini", f.errorFini);
    library.resolve("zip_error_strerror", f.errorStrerror);
    library.resolve("zip_error_code_zip", f.errorCodeZip);
    library.resolve("zip_error_set", f.errorSet);
    library.resolve("zip_error_to_data", f.errorToData);
    library.resolve("zip_source_function_create", f.sourceFunctionCreate);
    library.resolve("zip_source_free", f.sourceFree);
    library.resolve("zip_source_seek_compute_offset", f.sourceSeekComputeOffset);
    library.resolve("zip_source_make_command_bitmap", f.sourceMakeCommandBitmap);
    library.resolve("zip_source_zip", f.sourceZip);
    library.resolve("zip_source_file", f.sourceFile);
    library.resolve("zip_stat_init", f.statInit);
    library.resolve("zip_file_add", f.fileAdd);
    library.resolve("zip_set_file_compression", f.setFileCompression);
    library.resolve("zip_dir_add", f.dirAdd);
    library.resolve("zip_register_progress_callback_with_state", f.registerProgressCallback);
    library.resolve("zip_register_cancel_callback_with_state", f.registerCancelCallback);
    out.problem = library.problem();
    if (!out.problem.empty()) {
        out.problem += "; Strata needs libzip for ZDS archives";
    }
    return out;
}

}  // namespace

const ZipLibrary& zipLibrary() {
    static const Loaded loaded = load();  // made once, by the first thread to get here
    return loaded.orThrow();
}

}  // namespace strata
