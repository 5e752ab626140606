#include "remote_test_env.h"

#include <chrono>
#include <thread>

namespace strata::test {

WebSite& WebSite::get() {
    static WebSite site = [] {
        WebSite s;
        s.missing = nginxMissing();
        if (!s.missing.empty()) {
            return s;
        }
        s.root = std::make_unique<TempDir>("strata-www");
        writeFile(s.file("data/file.bin"), patternBytes(3 * 1024 * 1024 + 12345, 1));
        writeFile(s.file("data/small.bin"), patternBytes(1000, 2));
        writeFile(s.file("data/empty.bin"), "");
        writeFile(s.file("big/scan.bin"), patternBytes(8 * 1024 * 1024 + 77, 3));
        writeFile(s.file("list/a.bin"), "0123456789");
        writeFile(s.file("list/b.txt"), "abc");
        writeFile(s.file("list/sub/c.bin"), "c");
        writeFile(s.file("forbidden/secret.bin"), "secret");
        writeFile(s.file("nolist/x.bin"), "x");
        for (const char* name : kOddNames) {
            writeFile(s.file(std::string("names/") + name), name);
        }
        std::filesystem::permissions(
            s.root->path(),
            std::filesystem::perms::others_read | std::filesystem::perms::others_exec,
            std::filesystem::perm_options::add);
        try {
            s.nginx = std::make_unique<NginxServer>(s.root->path());
        } catch (const std::exception& e) {
            s.error = e.what();
        }
        return s;
    }();
    return site;
}

std::vector<AccessLogLine> WebSite::requestsFor(const std::string& uri) const {
    std::vector<AccessLogLine> out;
    for (AccessLogLine& line : nginx->accessLog()) {
        if (line.uri == uri) {
            out.push_back(std::move(line));
        }
    }
    return out;
}

std::vector<AccessLogLine> WebSite::requestsFor(const std::string& uri, std::size_t atLeast) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    std::vector<AccessLogLine> lines = requestsFor(uri);
    while (lines.size() < atLeast && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        lines = requestsFor(uri);
    }
    return lines;
}

}  // namespace strata::test
