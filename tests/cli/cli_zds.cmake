# strata-cli ZDS subcommands (included from tests/cli/CMakeLists.txt).
