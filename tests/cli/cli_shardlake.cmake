# strata-cli Shardlake subcommands (included from tests/cli/CMakeLists.txt).
