// What every strata-cli subcommand shares: the exit-code convention and a guard that turns
// exceptions into a message on stderr and exit code 2.
#pragma once

#include <functional>
#include <string>

namespace CLI {
class App;
}

namespace strata::cli {

// 0: success (warnings allowed); 1: the input has errors; 2: cannot open, or a usage error.
inline constexpr int kExitOk = 0;
inline constexpr int kExitErrors = 1;
inline constexpr int kExitFailure = 2;

// Owned by main(); subcommand callbacks record their exit code here.
struct CommandContext {
    int exitCode = kExitOk;
};

// Runs `body` and stores its exit code; any exception is printed as "strata-cli: <what>" on
// stderr and gives kExitFailure.
void runGuarded(CommandContext& context, const std::function<int()>& body);

// Adds the subcommand `name` to `app`; `fill` adds its options and subcommands only once the
// command line names it (CLI11 calls it before parsing the command's arguments). `strata-cli
// --help` lists commands by name and description only; building every command's options on
// every run was about a quarter of strata-cli's start-up time.
void defineCommand(CLI::App& app, const std::string& name, const std::string& description,
                   CommandContext& context, void (*fill)(CLI::App* command, CommandContext&));

// Every subcommand registers itself with one call, through defineCommand: the shared ones from
// runCli (cli_app.h), a format's own (`zs make`, `zds pack`) from the list the run was given: a
// new cli_<name>.cpp with a register function declared here, one line in builtin_commands.cpp
// and one in CMakeLists.txt.
void registerDetectCommand(CLI::App& app, CommandContext& context);
void registerInfoCommand(CLI::App& app, CommandContext& context);
void registerValidateCommand(CLI::App& app, CommandContext& context);
void registerDiffCommand(CLI::App& app, CommandContext& context);
void registerLeftoversCommand(CLI::App& app, CommandContext& context);
void registerRepairCommand(CLI::App& app, CommandContext& context);
void registerScanCommand(CLI::App& app, CommandContext& context);
void registerZsCommands(CLI::App& app, CommandContext& context);
void registerZtensorCommands(CLI::App& app, CommandContext& context);
void registerOzdfCommands(CLI::App& app, CommandContext& context);
void registerShardlakeCommands(CLI::App& app, CommandContext& context);
void registerZdsCommands(CLI::App& app, CommandContext& context);

}  // namespace strata::cli
