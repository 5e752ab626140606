// A format that exists only in the tests: "FAKE" files, the line "FAKE" and then one record per
// line, where a record that does not start with "ok" is damaged. It is registered beside the
// built-in formats in a registry (and a FormatViews) of a test's own, and shows that a format
// gets detection, its tree, validation and compare through the registries alone: nothing
// outside this header names it.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "formats/common/byte_source.h"
#include "formats/common/diagnostic.h"
#include "formats/registry/format_handler.h"

namespace strata::test {

inline constexpr FormatId kFakeFormat{"fake", "Fake"};

// The parsed file: each record's bytes (without its '\n').
struct FakeFile {
    ByteSourcePtr source;
    std::vector<Region> records;

    std::string text(std::size_t i) const {
        const ByteView v = source->view(records[i].offset, records[i].length);
        return {v.bytes.begin(), v.bytes.end()};
    }
};

// What the fake format's open keeps, as a real format's state.
struct FakeState final : FormatState {
    explicit FakeState(std::shared_ptr<const FakeFile> f) : file(std::move(f)) {}
    std::shared_ptr<const FakeFile> file;
};

inline std::shared_ptr<const FakeFile> openedFakeFile(const OpenedDocument& opened) {
    const auto state = opened.stateOf<FakeState>();
    return state ? state->file : nullptr;
}

inline std::shared_ptr<const FakeFile> readFakeFile(ByteSourcePtr source) {
    auto file = std::make_shared<FakeFile>();
    const ByteView all = source->view(0, source->size());
    const std::string_view text(reinterpret_cast<const char*>(all.data()), all.size());
    std::size_t at = text.find('\n') + 1;  // after the magic line
    while (at < text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        file->records.push_back({source.get(), at, end - at});
        at = end + 1;
    }
    file->source = std::move(source);
    return file;
}

class FakeValidator final : public Validator {
public:
    explicit FakeValidator(std::shared_ptr<const FakeFile> file) : file_(std::move(file)) {}
    JobOutcome run(DiagnosticSink& sink, const ValidationOptions&) override {
        for (std::size_t i = 0; i < file_->records.size(); ++i) {
            if (!file_->text(i).starts_with("ok")) {
                sink.report({Severity::Error,
                             "FAKE-RECORD",
                             "record " + std::to_string(i) + " does not start with \"ok\"",
                             {file_->records[i]},
                             {},
                             {}});
            }
        }
        return JobOutcome::Completed;
    }

private:
    std::shared_ptr<const FakeFile> file_;
};

// Records compared by position.
class FakeDiffer final : public Differ {
public:
    FakeDiffer(std::shared_ptr<const FakeFile> a, std::shared_ptr<const FakeFile> b)
        : a_(std::move(a)), b_(std::move(b)) {}
    JobOutcome run(DiffSink& sink, const DiffOptions&) override {
        const std::size_t n = std::max(a_->records.size(), b_->records.size());
        for (std::size_t i = 0; i < n; ++i) {
            const bool inA = i < a_->records.size(), inB = i < b_->records.size();
            if (inA && inB && a_->text(i) == b_->text(i)) {
                continue;
            }
            Difference d;
            d.kind = !inA ? DiffKind::Added : !inB ? DiffKind::Removed : DiffKind::Changed;
            d.path = "record " + std::to_string(i);
            d.description = d.path;
            if (inA) {
                d.a = {a_->records[i], a_->text(i)};
            }
            if (inB) {
                d.b = {b_->records[i], b_->text(i)};
            }
            if (!report(sink, std::move(d))) {
                return JobOutcome::Stopped;
            }
        }
        summary_.compared = n;
        return JobOutcome::Completed;
    }

private:
    std::shared_ptr<const FakeFile> a_, b_;
};

class FakeFormat final : public FormatHandler {
public:
    FormatId id() const override { return kFakeFormat; }
    std::optional<Detection> probe(const ProbeInput& input) const override {
        if (input.isDirectory || !input.headStartsWith("FAKE\n")) {
            return std::nullopt;
        }
        return Detection{kFakeFormat, 100, "fake record file"};
    }
    std::unique_ptr<OpenedDocument> open(const std::filesystem::path& path,
                                         const Detection&) const override {
        auto file = readFakeFile(openMappedFile(path));
        auto doc = std::make_unique<OpenedDocument>();
        doc->format = kFakeFormat;
        doc->path = path;
        doc->sources.push_back(file->source);
        auto root = std::make_unique<Node>("fake.file", path.filename().string(),
                                           Region{file->source.get(), 0, file->source->size()});
        for (std::size_t i = 0; i < file->records.size(); ++i) {
            auto record = std::make_unique<Node>("fake.record", "record " + std::to_string(i),
                                                 file->records[i]);
            record->setValue(file->text(i));
            root->appendChild(std::move(record));
        }
        doc->root = std::move(root);
        doc->facts = {{"records", std::to_string(file->records.size())}};
        doc->makeValidator = [file] { return std::make_unique<FakeValidator>(file); };
        doc->state = std::make_shared<const FakeState>(file);
        return doc;
    }
    std::unique_ptr<Differ> makeDiffer(const OpenedDocument& a,
                                       const OpenedDocument& b) const override {
        return std::make_unique<FakeDiffer>(openedFakeFile(a), openedFakeFile(b));
    }
};

}  // namespace strata::test
