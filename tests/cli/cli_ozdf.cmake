# strata-cli OZDF subcommands (included from tests/cli/CMakeLists.txt).
