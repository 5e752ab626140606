# strata-cli zTensor subcommands (included from tests/cli/CMakeLists.txt).
