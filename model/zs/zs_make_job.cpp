#include "zs_make_job.h"

#include <QFileInfo>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <istream>
#include <random>
#include <streambuf>
#include <vector>

#include "model/core/job.h"
#include "model/core/job_runner.h"

namespace strata::model {

namespace {

// Reads a file for the writer, reporting progress and ending the input early on cancel (the
// run is then abandoned, so a short input never reaches the output).
class ProgressBuffer : public std::streambuf {
public:
    ProgressBuffer(std::ifstream& in, std::uint64_t total, JobContext& context)
        : in_(in), total_(total), context_(context), buffer_(1 << 20) {}

protected:
    int_type underflow() override {
        if (gptr() < egptr()) {
            return traits_type::to_int_type(*gptr());
        }
        if (context_.cancelled()) {
            return traits_type::eof();
        }
        in_.read(buffer_.data(), std::streamsize(buffer_.size()));
        const std::streamsize got = in_.gcount();
        if (got <= 0) {
            return traits_type::eof();
        }
        done_ += std::uint64_t(got);
        context_.setProgress(total_ == 0 ? 1.0 : 0.95 * double(done_) / double(total_),
                             QStringLiteral("%1 of %2 bytes read").arg(done_).arg(total_));
        setg(buffer_.data(), buffer_.data(), buffer_.data() + got);
        return traits_type::to_int_type(*gptr());
    }

private:
    std::ifstream& in_;
    std::uint64_t total_;
    std::uint64_t done_ = 0;
    JobContext& context_;
    std::vector<char> buffer_;
};

// A name in the output's folder that does not exist yet.
std::filesystem::path temporaryBeside(const std::filesystem::path& output) {
    std::random_device random;
    for (int attempt = 0; attempt < 100; ++attempt) {
        char suffix[16];
        std::snprintf(suffix, sizeof suffix, ".%08x", unsigned(random()));
        std::filesystem::path candidate = output;
        candidate.replace_filename("." + output.filename().string() + suffix + ".part");
        std::error_code error;
        if (!std::filesystem::exists(candidate, error) && !error) {
            return candidate;
        }
    }
    throw zs::ZsWriteError("no free temporary name beside " + output.string());
}

int hexDigit(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

}  // namespace

std::string unescapeText(const QString& text, QString* error) {
    std::string out;
    const QByteArray utf8 = text.toUtf8();
    for (qsizetype i = 0; i < utf8.size(); ++i) {
        const char c = utf8[i];
        if (c != '\\' || i + 1 == utf8.size()) {
            out += c;
            continue;
        }
        const char e = utf8[++i];
        switch (e) {
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case '0':
                out += '\0';
                break;
            case '\\':
                out += '\\';
                break;
            case 'x': {
                const int hi = i + 1 < utf8.size() ? hexDigit(utf8[i + 1]) : -1;
                const int lo = i + 2 < utf8.size() ? hexDigit(utf8[i + 2]) : -1;
                if (hi < 0 || lo < 0) {
                    if (error) {
                        *error = QStringLiteral("\\x needs two hex digits");
                    }
                    return {};
                }
                out += char(hi * 16 + lo);
                i += 2;
                break;
            }
            default:
                if (error) {
                    *error = QStringLiteral("unknown escape \\%1").arg(QChar(e));
                }
                return {};
        }
    }
    return out;
}

void runZsMake(const ZsMakeRequest& request, JobContext& context) {
    const std::filesystem::path input(request.input.toStdString());
    const std::filesystem::path output(request.output.toStdString());
    try {
        std::ifstream file(input, std::ios::binary);
        if (!file) {
            context.fail(QStringLiteral("cannot read %1").arg(request.input));
            return;
        }
        if (request.framing == ZsMakeRequest::Framing::Terminated && request.terminator.empty()) {
            context.fail(QStringLiteral("the terminator is empty"));
            return;
        }
        std::error_code sizeError;
        const std::uint64_t total = std::filesystem::file_size(input, sizeError);
        ProgressBuffer buffer(file, sizeError ? 0 : total, context);
        std::istream in(&buffer);
        const std::filesystem::path temporary = temporaryBeside(output);
        zs::ZsWriter writer(temporary, request.metadata, request.options);  // abandons unless
        const std::uint64_t block = request.options.approxBlockSize;        // finished
        if (request.framing == ZsMakeRequest::Framing::Terminated) {
            zs::addTerminatedRecords(writer, in, request.terminator, block);
        } else {
            zs::addLengthPrefixedRecords(writer, in,
                                         request.framing == ZsMakeRequest::Framing::Uleb128, block);
        }
        if (context.cancelled()) {
            writer.abandon();
            return;
        }
        context.setProgress(0.96, QStringLiteral("writing the index"));
        writer.finish();
        std::error_code renameError;
        std::filesystem::rename(temporary, output, renameError);
        if (renameError) {
            std::filesystem::remove(temporary, renameError);
            context.fail(QStringLiteral("cannot move the new file to %1").arg(request.output));
            return;
        }
        context.setProgress(1.0, QStringLiteral("%1 data blocks").arg(writer.blocksWritten()));
    } catch (const std::exception& e) {
        // The writer's destructor has removed the temporary file by now. A cancelled run may
        // fail on its cut-short input: that is still a cancellation.
        if (context.cancelled()) {
            return;
        }
        context.fail(QString::fromStdString(e.what()));
    }
}

Job* startZsMake(JobRunner& runner, const ZsMakeRequest& request) {
    const QString title =
        QStringLiteral("New ZS file: %1").arg(QFileInfo(request.output).fileName());
    return runner.start(title, [request](JobContext& context) { runZsMake(request, context); });
}

}  // namespace strata::model
