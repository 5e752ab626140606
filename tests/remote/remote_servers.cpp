#include "remote_servers.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace strata::test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

TempDir::TempDir(const std::string& prefix) {
    std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("cannot make a temporary folder " + pattern);
    }
    path_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
}

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const fs::path& logFile) {
    pid_ = ::fork();
    if (pid_ < 0) {
        throw std::runtime_error("fork failed");
    }
    if (pid_ == 0) {
        ::setpgid(0, 0);
        const int log = ::open(logFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (log >= 0) {
            ::dup2(log, 1);
            ::dup2(log, 2);
        }
        const int null = ::open("/dev/null", O_RDONLY);
        if (null >= 0) {
            ::dup2(null, 0);
        }
        // Nothing else is inherited: a server outliving a killed test must not keep the test's
        // files open (a lock taken with flock(1) around the test would stay held).
        ::close_range(3, ~0U, 0);
        std::vector<char*> args;
        for (const std::string& a : argv) {
            args.push_back(const_cast<char*>(a.c_str()));
        }
        args.push_back(nullptr);
        ::execv(args[0], args.data());
        ::_exit(127);
    }
}

ChildProcess::~ChildProcess() {
    if (pid_ <= 0) {
        return;
    }
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 100; ++i) {
        if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
            return;
        }
        std::this_thread::sleep_for(50ms);
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
}

bool ChildProcess::running() const {
    return pid_ > 0 && ::waitpid(pid_, nullptr, WNOHANG) == 0;
}

namespace {

int freePort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t length = sizeof addr;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &length) != 0) {
        ::close(fd);
        throw std::runtime_error("cannot find a free loopback port");
    }
    ::close(fd);
    return ntohs(addr.sin_port);
}

bool accepting(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    ::close(fd);
    return ok;
}

std::string readText(const fs::path& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Waits for the child to write its port (or, for nginx, to accept on the chosen one).
int waitForPort(const ChildProcess& process, const fs::path& portFile, int knownPort,
                const fs::path& log, const std::string& what) {
    for (int i = 0; i < 300; ++i) {
        int port = knownPort;
        if (port == 0 && fs::exists(portFile)) {
            port = std::atoi(readText(portFile).c_str());
        }
        if (port > 0 && accepting(port)) {
            return port;
        }
        if (!process.running()) {
            break;
        }
        std::this_thread::sleep_for(50ms);
    }
    throw std::runtime_error(what + " did not start: " + readText(log));
}

std::string missingFile(const char* path, const std::string& what) {
    if (std::string(path).empty() || !fs::exists(path)) {
        return what + " not found" + (std::string(path).empty() ? "" : std::string(" at ") + path);
    }
    return {};
}

}  // namespace

std::string nginxMissing() {
    return missingFile(STRATA_NGINX_EXECUTABLE, "nginx (Debian package nginx-light)");
}

std::string s3rverMissing() {
    std::string why = missingFile(STRATA_NODE_EXECUTABLE, "node (Debian package nodejs)");
    if (why.empty()) {
        why = missingFile(STRATA_S3RVER_DIR "/package.json",
                          "s3rver (npm install --prefix build/npm s3rver@3.7.1)");
    }
    return why;
}

std::string proxyMissing() {
    return missingFile(STRATA_PYTHON3_EXECUTABLE, "python3");
}

NginxServer::NginxServer(const fs::path& root, const TestCertificates* tls)
    : root_(root), tls_(tls != nullptr) {
    dir_ = std::make_unique<TempDir>("strata-nginx");
    const fs::path d = dir_->path();
    for (const char* sub : {"body", "proxy", "fastcgi", "uwsgi", "scgi"}) {
        fs::create_directories(d / sub);
    }
    std::ofstream(d / "htpasswd") << kPrivateUser << ":{PLAIN}" << kPrivatePassword << "\n";
    for (int tries = 0; tries < 3 && !process_; ++tries) {
        const int port = freePort();
        std::ofstream conf(d / "nginx.conf");
        conf << "daemon off;\nmaster_process off;\npid " << (d / "nginx.pid").string() << ";\n"
             << "error_log " << (d / "error.log").string() << " warn;\n"
             << "events { worker_connections 512; }\n"
             << "http {\n"
             << "  types { application/octet-stream bin; application/json json; }\n"
             << "  default_type application/octet-stream;\n"
             << "  log_format strata '$request_method $uri \"$http_range\" $status "
                "$body_bytes_sent \"$http_if_match\"';\n"
             << "  access_log " << (d / "access.log").string() << " strata;\n"
             << "  client_body_temp_path " << (d / "body").string() << ";\n"
             << "  proxy_temp_path " << (d / "proxy").string() << ";\n"
             << "  fastcgi_temp_path " << (d / "fastcgi").string() << ";\n"
             << "  uwsgi_temp_path " << (d / "uwsgi").string() << ";\n"
             << "  scgi_temp_path " << (d / "scgi").string() << ";\n"
             << "  keepalive_requests 100000;\n"
             << "  server {\n"
             << "    listen 127.0.0.1:" << port << (tls ? " ssl" : "") << ";\n";
        if (tls) {
            conf << "    ssl_certificate " << tls->serverCertificate.string() << ";\n"
                 << "    ssl_certificate_key " << tls->serverKey.string() << ";\n";
        }
        conf << "    root " << root.string() << ";\n"
             << "    location /list/ { autoindex on; autoindex_format json; }\n"
             << "    location /listed/ { alias " << root.string()
             << "/; autoindex on; autoindex_format json; }\n"
             << "    location /stored/ { alias " << root.string()
             << "/; index /.stored-listings${uri}listing.json; }\n"
             << "    location /.stored-listings/ { internal; alias " << (d / "listings").string()
             << "/; max_ranges 0; }\n"
             << "    location /private/ { alias " << root.string()
             << "/; autoindex on; autoindex_format json; auth_basic strata; auth_basic_user_file "
             << (d / "htpasswd").string() << "; }\n"
             << "    location /forbidden/ { deny all; }\n"
             << "    location = /loop/a { return 302 /loop/b; }\n"
             << "    location = /loop/b { return 302 /loop/a; }\n"
             << "    location = /moved/file.bin { return 301 /data/file.bin; }\n"
             << "    location = /away/file.bin { return 302 http://127.0.0.2:" << port
             << "/data/file.bin; }\n"
             << "    location = /ftp/file.bin { return 302 ftp://127.0.0.1/file.bin; }\n"
             << "  }\n}\n";
        conf.close();
        auto process = std::make_unique<ChildProcess>(
            std::vector<std::string>{STRATA_NGINX_EXECUTABLE, "-p", d.string(), "-e",
                                     (d / "error.log").string(), "-c", (d / "nginx.conf").string()},
            d / "stderr.log");
        try {
            port_ = waitForPort(*process, {}, port, d / "error.log", "nginx");
            process_ = std::move(process);
        } catch (const std::runtime_error&) {
            if (tries == 2) {
                throw;
            }
        }
    }
}

NginxServer::~NginxServer() = default;

std::string NginxServer::url(const std::string& path) const {
    return (tls_ ? "https://127.0.0.1:" : "http://127.0.0.1:") + std::to_string(port_) + path;
}

namespace {

std::string httpGet(const std::string& url) {
    CURL* h = curl_easy_init();
    std::string body;
    curl_easy_setopt(h, CURLOPT_URL, url.c_str());
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &body);
    curl_easy_setopt(
        h, CURLOPT_WRITEFUNCTION, +[](char* data, std::size_t s, std::size_t n, void* out) {
            static_cast<std::string*>(out)->append(data, s * n);
            return s * n;
        });
    const CURLcode rc = curl_easy_perform(h);
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(h);
    if (rc != CURLE_OK || status != 200) {
        throw std::runtime_error("GET " + url + " failed: " + curl_easy_strerror(rc) + ", HTTP " +
                                 std::to_string(status));
    }
    return body;
}

}  // namespace

std::string encodedPath(const std::string& path) {
    std::string out;
    std::size_t start = 0;
    while (true) {
        const auto slash = path.find('/', start);
        const std::string part = path.substr(start, slash - start);
        char* escaped = curl_easy_escape(nullptr, part.c_str(), static_cast<int>(part.size()));
        out += escaped;
        curl_free(escaped);
        if (slash == std::string::npos) {
            return out;
        }
        out += '/';
        start = slash + 1;
    }
}

void NginxServer::storeListings(const fs::path& folder) const {
    std::vector<fs::path> folders{folder};
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        if (entry.is_directory()) {
            folders.push_back(entry.path());
        }
    }
    for (const fs::path& f : folders) {
        const fs::path relative = fs::relative(f, root_);
        const std::string path =
            relative == "." ? "" : encodedPath(relative.generic_string()) + "/";
        const fs::path stored = dir_->path() / "listings" / "stored" / relative;
        fs::create_directories(stored);
        std::ofstream(stored / "listing.json", std::ios::binary) << httpGet(url("/listed/" + path));
    }
}

std::string opensslMissing() {
    return missingFile(STRATA_OPENSSL_EXECUTABLE, "openssl (Debian package openssl)");
}

TestCertificates makeTestCertificates(const fs::path& dir) {
    const std::string openssl = STRATA_OPENSSL_EXECUTABLE;
    TestCertificates out{dir / "ca.pem", dir / "server.pem", dir / "server.key"};
    const fs::path caKey = dir / "ca.key", request = dir / "server.csr", ext = dir / "san.ext";
    std::ofstream(ext) << "subjectAltName=IP:127.0.0.1\n";
    const std::vector<std::string> steps = {
        openssl + " req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=Strata-test-CA -keyout " +
            caKey.string() + " -out " + out.caCertificate.string(),
        openssl + " req -newkey rsa:2048 -nodes -subj /CN=127.0.0.1 -keyout " +
            out.serverKey.string() + " -out " + request.string(),
        openssl + " x509 -req -days 2 -in " + request.string() + " -CA " +
            out.caCertificate.string() + " -CAkey " + caKey.string() +
            " -CAcreateserial -extfile " + ext.string() + " -out " +
            out.serverCertificate.string()};
    for (const std::string& step : steps) {
        if (std::system((step + " >" + (dir / "openssl.log").string() + " 2>&1").c_str()) != 0) {
            throw std::runtime_error("openssl failed: " + step + "\n" +
                                     readText(dir / "openssl.log"));
        }
    }
    return out;
}

std::vector<AccessLogLine> NginxServer::accessLog() const {
    std::vector<AccessLogLine> lines;
    std::ifstream in(dir_->path() / "access.log");
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream s(line);
        AccessLogLine l;
        s >> l.method >> l.uri >> std::quoted(l.range) >> l.status >> l.bytes >>
            std::quoted(l.ifMatch);
        for (std::string* field : {&l.range, &l.ifMatch}) {
            if (*field == "-") {
                field->clear();
            }
        }
        lines.push_back(l);
    }
    return lines;
}

S3Server::S3Server(const std::vector<std::string>& buckets) {
    dir_ = std::make_unique<TempDir>("strata-s3rver");
    const fs::path d = dir_->path();
    // s3rver makes continuation tokens with DES, which Node's OpenSSL 3 keeps in its legacy
    // provider; without it every truncated listing is a 500.
    std::vector<std::string> argv{STRATA_NODE_EXECUTABLE,
                                  "--openssl-legacy-provider",
                                  STRATA_REMOTE_TEST_DIR "/s3rver_start.js",
                                  STRATA_S3RVER_DIR,
                                  (d / "data").string(),
                                  (d / "port").string()};
    argv.insert(argv.end(), buckets.begin(), buckets.end());
    process_ = std::make_unique<ChildProcess>(argv, d / "log.txt");
    port_ = waitForPort(*process_, d / "port", 0, d / "log.txt", "s3rver");
}

S3Server::~S3Server() = default;

std::string S3Server::endpoint() const {
    return "http://127.0.0.1:" + std::to_string(port_);
}

void S3Server::put(const std::string& bucket, const std::string& key,
                   const std::string& bytes) const {
    CURL* h = curl_easy_init();
    const std::string url = endpoint() + "/" + bucket + "/" + encodedPath(key);
    curl_easy_setopt(h, CURLOPT_URL, url.c_str());
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, "PUT");
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, bytes.data());
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(bytes.size()));
    curl_easy_setopt(
        h, CURLOPT_WRITEFUNCTION,
        +[](char*, std::size_t s, std::size_t n, void*) { return s * n; });
    const CURLcode rc = curl_easy_perform(h);
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_cleanup(h);
    if (rc != CURLE_OK || status != 200) {
        throw std::runtime_error("PUT " + url + " failed: " + curl_easy_strerror(rc) + ", HTTP " +
                                 std::to_string(status));
    }
}

FaultProxy::FaultProxy(int upstreamPort, const std::vector<std::string>& sigv4) {
    dir_ = std::make_unique<TempDir>("strata-proxy");
    const fs::path d = dir_->path();
    std::vector<std::string> argv{STRATA_PYTHON3_EXECUTABLE,
                                  STRATA_REMOTE_TEST_DIR "/fault_proxy.py",
                                  "--upstream",
                                  "127.0.0.1:" + std::to_string(upstreamPort),
                                  "--port-file",
                                  (d / "port").string()};
    for (const std::string& s : sigv4) {
        argv.push_back("--sigv4");
        argv.push_back(s);
    }
    process_ = std::make_unique<ChildProcess>(argv, d / "log.txt");
    port_ = waitForPort(*process_, d / "port", 0, d / "log.txt", "the fault proxy");
}

FaultProxy::~FaultProxy() = default;

std::string FaultProxy::url(const std::string& tag, const std::string& fault,
                            const std::string& path) const {
    const std::string base = "http://127.0.0.1:" + std::to_string(port_);
    return fault.empty() ? base + path : base + "/f/" + tag + "/" + fault + path;
}

std::string patternBytes(std::size_t size, std::uint32_t seed) {
    std::string out(size, '\0');
    std::mt19937 rng(seed);
    for (char& c : out) {
        c = static_cast<char>(rng() & 0xFF);
    }
    return out;
}

}  // namespace strata::test
