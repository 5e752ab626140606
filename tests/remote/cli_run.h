// Runs strata-cli as a separate process for the remote CLI tests: stdout, stderr and the exit
// code, with stdin closed.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "remote_servers.h"

namespace strata::test {

struct CliRun {
    int exit = -1;
    std::string out, err;
};

inline std::string readAll(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

inline std::string quoted(const std::string& arg) {
    std::string out = "'";
    for (const char c : arg) {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

inline CliRun runCli(const std::vector<std::string>& args) {
    static TempDir scratch("strata-cli-remote");
    std::string command = quoted(STRATA_CLI_EXECUTABLE);
    for (const std::string& arg : args) {
        command += ' ' + quoted(arg);
    }
    const std::filesystem::path out = scratch.path() / "out", err = scratch.path() / "err";
    command += " >" + quoted(out.string()) + " 2>" + quoted(err.string()) + " </dev/null";
    const int status = std::system(command.c_str());
    CliRun run;
    run.exit = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    run.out = readAll(out);
    run.err = readAll(err);
    return run;
}

inline std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos;
         at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
    }
    return text;
}

}  // namespace strata::test
