// strata-cli: headless inspection and validation of ZS, ZDS, Shardlake, OZDF and zTensor data.
#include "builtin_commands.h"
#include "cli_app.h"
#include "formats/builtin/builtin_formats.h"
#include "process_heap.h"

int main(int argc, char** argv) {
    using namespace strata::cli;
    prepareProcessHeap();
    return runCli(argc, argv, {&strata::builtinFormats(), builtinCommands(), STRATA_VERSION});
}
