#include "command_context.h"

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

}  // namespace strata::cli
