// strata-cli detect PATH [--json]: the format of a file or folder.
#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <string>

#include "command_context.h"
#include "formats/registry/format_registry.h"
#include "input_source.h"
#include "json_output.h"

namespace strata::cli {

namespace {

// Run when the command line names the command (defineCommand).
void fillDetectCommand(CLI::App* command, CommandContext& context) {
    struct Options {
        std::string path;
        bool json = false;
    };
    auto options = std::make_shared<Options>();
    command->add_option("PATH", options->path, "File or folder")
        ->transform(inputArgument)
        ->required();
    command->add_flag("--json", options->json, "Print one JSON object");
    command->callback([&context, options] {
        runGuarded(context, [&] {
            const Detection detection = detectInput(options->path);
            if (options->json) {
                printJson(detectionJson(options->path, detection));
            } else {
                std::cout << displayName(detection) << '\n';
            }
            return kExitOk;
        });
    });
}

}  // namespace

void registerDetectCommand(CLI::App& app, CommandContext& context) {
    defineCommand(app, "detect", "Print the format of a file or folder", context,
                  &fillDetectCommand);
}

}  // namespace strata::cli
