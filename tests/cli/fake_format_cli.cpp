// strata-cli over the fake format of tests/support/fake_format.h, which the tool itself does
// not know: the shared commands (detect, info, validate, diff) reach it through the registry
// alone, and its own subcommand through the same registration the built-in formats use. Run
// by the cli.fake_* tests in CMakeLists.txt.
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <string>

#include "app/cli/cli_app.h"
#include "app/cli/input_source.h"
#include "formats/registry/raw_binary_format.h"
#include "tests/support/fake_format.h"

namespace {

using namespace strata::cli;

// `fake count PATH`: the number of records, as a format's own command would print it.
void fillCount(CLI::App* command, CommandContext& context) {
    auto path = std::make_shared<std::string>();
    command->add_option("path", *path, "A fake record file")->required();
    command->callback([path, &context] {
        runGuarded(context, [path] {
            const auto opened = openDocument(*path);
            const auto file = strata::test::openedFakeFile(*opened);
            std::cout << file->records.size() << " records\n";
            return kExitOk;
        });
    });
}

void registerFakeCommands(CLI::App& app, CommandContext& context) {
    CLI::App* fake = app.add_subcommand("fake", "Fake record files");
    fake->require_subcommand(1);
    defineCommand(*fake, "count", "Count the records of a fake file", context, fillCount);
}

}  // namespace

int main(int argc, char** argv) {
    strata::FormatRegistry formats;
    formats.add(std::make_unique<strata::test::FakeFormat>());
    formats.add(std::make_unique<strata::RawBinaryFormat>());
    return runCli(argc, argv, {&formats, {registerFakeCommands}, "0-fake"});
}
