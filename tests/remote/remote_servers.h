// Real servers for the remote-source tests and benchmarks, started on 127.0.0.1 with free ports
// and stopped when their object goes: nginx serving a temporary folder, s3rver (from npm), and
// the fault-injecting proxy (fault_proxy.py). Nothing here reaches beyond this machine.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace strata::test {

// A fresh folder under the system temp dir, removed by the destructor.
class TempDir {
public:
    explicit TempDir(const std::string& prefix);
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// A child process, terminated (SIGTERM, then SIGKILL) and reaped by the destructor.
class ChildProcess {
public:
    ChildProcess(const std::vector<std::string>& argv, const std::filesystem::path& logFile);
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    bool running() const;

private:
    pid_t pid_ = -1;
};

// Why a server cannot start (a missing program or package), or empty when it can.
std::string nginxMissing();
std::string s3rverMissing();
std::string proxyMissing();

// A certificate authority and a server certificate for 127.0.0.1 signed by it, made with the
// openssl command in `dir` for one test run (nothing secret is kept anywhere else).
struct TestCertificates {
    std::filesystem::path caCertificate, serverCertificate, serverKey;
};
std::string opensslMissing();
TestCertificates makeTestCertificates(const std::filesystem::path& dir);

// The user and password nginx asks for under /private/ (HTTP basic authentication).
inline constexpr const char* kPrivateUser = "reader";
inline constexpr const char* kPrivatePassword = "pa ss@w#rd%";
// The same password as it is typed in a URL's user part.
inline constexpr const char* kPrivatePasswordInUrl = "pa%20ss%40w%23rd%25";

struct AccessLogLine {
    std::string method, uri, range, status, ifMatch;
    std::uint64_t bytes = 0;
};

class NginxServer {
public:
    // Serves `root` at "/" (with JSON listings under /list/, a deny rule on /forbidden/ and
    // redirect rules under /loop/, /moved/, /away/ and /ftp/), and the whole of `root` again
    // under /listed/ with JSON folder listings (chunked), under /stored/ with the listings
    // storeListings kept (static files: a Content-Length, and no ranges), and under /private/
    // with JSON listings behind basic authentication (kPrivateUser, kPrivatePassword). Over
    // HTTPS when `tls` is given. Throws std::runtime_error.
    explicit NginxServer(const std::filesystem::path& root, const TestCertificates* tls = nullptr);
    ~NginxServer();
    int port() const { return port_; }
    std::string url(const std::string& path) const;
    std::vector<AccessLogLine> accessLog() const;
    // Keeps nginx's own JSON listing (from /listed/) of `folder` under the root and of every
    // folder below it, in a tree of its own beside the root (the served files stay as they
    // are), which /stored/ then serves as each folder's listing with a Content-Length.
    void storeListings(const std::filesystem::path& folder) const;

private:
    std::unique_ptr<TempDir> dir_;
    std::unique_ptr<ChildProcess> process_;
    std::filesystem::path root_;
    int port_ = 0;
    bool tls_ = false;
};

class S3Server {
public:
    explicit S3Server(const std::vector<std::string>& buckets);
    ~S3Server();
    int port() const { return port_; }
    std::string endpoint() const;
    // Uploads an object (an unsigned PUT, which s3rver accepts). Throws std::runtime_error.
    void put(const std::string& bucket, const std::string& key, const std::string& bytes) const;

private:
    std::unique_ptr<TempDir> dir_;
    std::unique_ptr<ChildProcess> process_;
    int port_ = 0;
};

class FaultProxy {
public:
    // Forwards to 127.0.0.1:upstreamPort; `sigv4` holds "ACCESS:SECRET" pairs to check.
    explicit FaultProxy(int upstreamPort, const std::vector<std::string>& sigv4 = {});
    ~FaultProxy();
    int port() const { return port_; }
    // "http://127.0.0.1:P/f/<tag>/<fault>/<path>"; an empty fault forwards unchanged.
    std::string url(const std::string& tag, const std::string& fault,
                    const std::string& path) const;

private:
    std::unique_ptr<TempDir> dir_;
    std::unique_ptr<ChildProcess> process_;
    int port_ = 0;
};

// `path` with each '/'-separated part percent-encoded (as a URL's path).
std::string encodedPath(const std::string& path);

// Deterministic test content.
std::string patternBytes(std::size_t size, std::uint32_t seed);

}  // namespace strata::test
