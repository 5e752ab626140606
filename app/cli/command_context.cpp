#include "command_context.h"

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>

#include "formats/remote/remote_url.h"

namespace strata::cli {

void runGuarded(CommandContext& context, const std::function<int()>& body) {
    try {
        context.exitCode = body();
    } catch (const std::exception& error) {
        std::cerr << "strata-cli: " << redactCredentials(error.what()) << '\n';
        context.exitCode = kExitFailure;
    }
}

void defineCommand(CLI::App& app, const std::string& name, const std::string& description,
                   CommandContext& context, void (*fill)(CLI::App* command, CommandContext&)) {
    CLI::App* command = app.add_subcommand(name, description);
    command->preparse_callback([command, &context, fill](std::size_t) { fill(command, context); });
}

}  // namespace strata::cli
