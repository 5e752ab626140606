#include "zds_write_checks.h"

#include <algorithm>
#include <cstring>
#include <span>

#include "zds_json_line.h"

namespace strata::zds {

namespace {

constexpr std::size_t kBatchDocuments = 4096;
// Batches checked or queued ahead of the writer: bounds memory, keeps both cores busy.
constexpr std::size_t kBatchesAhead = 8;

}  // namespace

bool isNewText(const ZdsWriteDoc& d) {
    return !d.originalIndex && !d.dataRange && !d.docsFileId;
}

NewDocCheck checkNewDocument(const ZdsCollectionWrite& c, std::size_t n) {
    const std::string& json = c.documents[n].json;
    const auto text = std::span(reinterpret_cast<const std::uint8_t*>(json.data()), json.size());
    NewDocCheck out;
    out.lineBreak = json.find_first_of("\r\n") != std::string::npos;
    if (auto id = provenDocumentId(text)) {
        out.id = std::move(*id);
        return out;
    }
    const JsonLineFacts facts = analyzeJsonLine(text);
    if (!facts.valid || !facts.isObject) {
        out.error = "collection " + c.name + ", new document " + std::to_string(n) +
                    ": not a JSON object" + (facts.error.empty() ? "" : ": " + facts.error);
    } else if (!facts.idIsString) {
        out.error =
            "collection " + c.name + ", new document " + std::to_string(n) + ": no string _id";
    } else {
        out.id = facts.id;
    }
    return out;
}

NewDocChecks::NewDocChecks(const ZdsCollectionWrite& c, const CancelToken* cancel)
    : c_(c),
      batches_((c.documents.size() + kBatchDocuments - 1) / kBatchDocuments),
      pool_(0, kBatchesAhead, cancel) {
    while (submitted_ < batches_ && !pool_.full()) {
        submit();
    }
}

void NewDocChecks::submit() {
    if (submitted_ >= batches_) {
        return;
    }
    const std::size_t begin = submitted_++ * kBatchDocuments;
    const std::size_t end = std::min(begin + kBatchDocuments, c_.documents.size());
    pool_.submit([this, begin, end] {
        Batch batch(end - begin);
        for (std::size_t n = begin; n < end; ++n) {
            if (isNewText(c_.documents[n])) {
                batch[n - begin] = checkNewDocument(c_, n);
            }
        }
        return batch;
    });
}

const NewDocCheck* NewDocChecks::next(std::size_t n) {
    if (n >= currentBegin_ + current_.size()) {
        std::optional<Batch> batch = pool_.next();
        if (!batch) {
            return nullptr;
        }
        current_ = std::move(*batch);
        currentBegin_ = n;
        submit();
    }
    return &current_[n - currentBegin_];
}

}  // namespace strata::zds
