// strata-cli as a library: the shared commands (detect, info, validate, diff, repair,
// clean-leftovers) over a registry of formats, plus the commands each format adds. The tool is
// this run over the built-in formats (main.cpp, builtin_commands.h); the tests run it over a
// format of their own to show a format gets the CLI through registration alone.
#pragma once

#include <string>
#include <vector>

#include "command_context.h"
#include "formats/registry/format_registry.h"

namespace strata::cli {

// Adds a format's own subcommands (`zs make`, `zds pack`) to the app, through defineCommand.
using RegisterCommands = void (*)(CLI::App& app, CommandContext& context);

// What a run of strata-cli knows: its formats and their commands.
struct CliSetup {
    const FormatRegistry* formats = nullptr;
    std::vector<RegisterCommands> formatCommands;
    std::string version;  // printed by --version after "strata-cli "
};

// Parses `argc`/`argv`, runs the command and returns the process exit code (0/1/2, see
// command_context.h).
int runCli(int argc, char** argv, const CliSetup& setup);

// The formats of the running command (set by runCli for the whole run).
const FormatRegistry& cliFormats();

}  // namespace strata::cli
