# strata-cli ZS subcommands (included from tests/cli/CMakeLists.txt).
