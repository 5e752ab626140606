// strata-cli info PATH [--json]: format, description and facts of a file or folder.
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

int runInfo(const std::string& path, bool json) {
    const auto document = openDocument(path);
    std::string description;
    for (const auto& [key, value] : document->facts) {
        if (key == "description") {
            description = value;
        }
    }
    if (json) {
        Json out = Json::object();
        out["format"] = std::string(formatName(document->format));
        out["path"] = path;
        out["description"] = description;
        out["facts"] = factsJson(document->facts);
        printJson(out);
        return kExitOk;
    }
    std::cout << "path: " << path << '\n';
    for (const auto& [key, value] : document->facts) {
        std::cout << key << ": " << value << '\n';
    }
    return kExitOk;
}

// Run when the command line names the command (defineCommand).
void fillInfoCommand(CLI::App* command, CommandContext& context) {
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
        runGuarded(context, [&] { return runInfo(options->path, options->json); });
    });
}

}  // namespace

void registerInfoCommand(CLI::App& app, CommandContext& context) {
    defineCommand(app, "info", "Print the format and facts of a file or folder", context,
                  &fillInfoCommand);
}

}  // namespace strata::cli
