// The validator's checks of a file-per-document collection: each docs/ file (in parallel),
// order.ids, and the metadata files beside them.
#include <algorithm>
#include <exception>
#include <limits>
#include <span>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "formats/common/ordered_pool.h"
#include "formats/common/thread_cancel.h"
#include "zds_docs_checks.h"
#include "zds_line_index.h"
#include "zds_reader.h"
#include "zds_validator_parts.h"

namespace strata::zds {

namespace {

// docs/ files checked per task on the worker threads.
constexpr std::size_t kDocsPerTask = 256;

std::string_view asText(std::span<const std::uint8_t> bytes) {
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

}  // namespace

// Each file is read once (a docs/ folder may hold a million): its name, its JSON and `_id`,
// and its shape when schemas.jsonl will be checked against it.
ZdsValidator::DocsChunk ZdsValidator::checkDocFiles(const ZdsCollection& c,
                                                    std::span<const std::string> names,
                                                    bool wantShapes) {
    const ZdsStorage& st = ds_->storage();
    DocsChunk out;
    CallbackSink sink([&out](Diagnostic d) { out.diagnostics.push_back(std::move(d)); });
    ValidationOptions uncapped;
    uncapped.maxPerCode = std::numeric_limits<std::size_t>::max();
    Reporter r(sink, uncapped);
    for (const std::string& name : names) {
        const std::string rel = c.path("docs/" + name);
        if (!name.ends_with(".json") || name.size() == 5) {
            r.warning("ZDS-DOCS-NAME", "docs/" + name + " is not named <id>.json", {},
                      st.displayPath(rel));
            continue;
        }
        std::string id = name.substr(0, name.size() - 5);
        out.ids.push_back(id);
        const FileReadOnce file = st.readOnce(rel, kMaxMetadataSize);
        if (!file.source) {
            r.error("ZDS-DOCS-UNREADABLE", "docs/" + name + " cannot be read", {},
                    st.displayPath(rel));
            continue;
        }
        const std::size_t reported = out.diagnostics.size();
        checkDocFile(r, rel, name, std::move(id), file, wantShapes, out);
        if (out.diagnostics.size() != reported) {
            st.keep(rel, file.source);  // the diagnostics point into it; the rest are let go
        }
    }
    return out;
}

void ZdsValidator::checkDocFile(Reporter& r, const std::string& rel, const std::string& name,
                                std::string id, const FileReadOnce& file, bool wantShapes,
                                DocsChunk& out) {
    const ByteSourcePtr& src = file.source;
    checkId(r, id, Region{}, false);
    if (src->size() > kMaxMetadataSize) {
        r.warning("ZDS-DOCS-LARGE", "docs/" + name + " is larger than 64 MiB; not parsed",
                  whole(src));
        return;
    }
    const ByteView& v = file.bytes;
    if (v.size() != src->size()) {
        r.error("ZDS-DOCS-UNREADABLE",
                "docs/" + name + " cannot be read (" + std::to_string(v.size()) + " of " +
                    std::to_string(src->size()) + " bytes)",
                {}, ds_->storage().displayPath(rel));
        return;
    }
    const LineResult res = checkJsonText(r, v.bytes, whole(src), false);
    if (res.hasId && res.id != id) {
        r.error("ZDS-DOCS-ID",
                "docs/" + name + " holds _id " + quoteName(res.id) +
                    ", which does not match its file name",
                whole(src));
    }
    out.facts.push_back({std::move(id), src->size(),
                         wantShapes ? zdsDocShape(v.bytes) : std::optional<std::string>()});
}

bool ZdsValidator::checkDocs(Reporter& r, const ValidationOptions& opt, const ZdsCollection& c) {
    const ZdsStorage& st = ds_->storage();
    const std::string docsDir = st.displayPath(c.path("docs"));
    if (!c.hasDocsDir) {
        r.error("ZDS-DOCS-MISSING", "meta/order.ids lists documents but docs/ does not exist",
                whole(c.orderIds), docsDir);
    }
    const bool wantShapes = c.docIndex && st.hasFile(c.path("meta/schemas.jsonl"));
    std::unordered_set<std::string> files;
    ZdsDocFacts facts;
    const std::vector<std::string>& names = c.docFiles();
    files.reserve(names.size());
    const unsigned threads = ds_->remote() ? 1 : opt.threads;
    // The metadata files are read and checked on their own beside the documents (locally:
    // a remote dataset keeps one request at a time, in the order it always made them).
    ZdsDocsMetadataCheck metadata(c, manifestStrict(c));
    std::exception_ptr metadataFailed;
    std::thread metadataReader;
    if (!ds_->remote()) {
        metadataReader = startThreadInheritingCancel([&metadata, &metadataFailed] {
            try {
                metadata.read();
            } catch (...) {
                metadataFailed = std::current_exception();
            }
        });
    }
    // Whatever way this function leaves, the reader is done first (it reads `c`).
    struct JoinOnExit {
        std::thread& thread;
        void join() {
            if (thread.joinable()) {
                thread.join();
            }
        }
        ~JoinOnExit() { join(); }
    } reader{metadataReader};
    OrderedPool<DocsChunk> pool(threads, 8, opt.cancel);
    auto take = [&](DocsChunk chunk) {
        for (Diagnostic& d : chunk.diagnostics) {
            r.forward(std::move(d));
        }
        for (std::string& id : chunk.ids) {
            files.insert(std::move(id));
        }
        for (DocsChunk::Facts& f : chunk.facts) {
            facts.add(std::move(f.id), f.size, std::move(f.shape));
        }
    };
    for (std::size_t at = 0; at < names.size(); at += kDocsPerTask) {
        const std::span<const std::string> part(
            names.data() + at, std::min<std::size_t>(kDocsPerTask, names.size() - at));
        if (pool.full()) {
            if (auto chunk = pool.next()) {
                take(std::move(*chunk));
            }
        }
        if (!pool.submit(
                [this, &c, part, wantShapes] { return checkDocFiles(c, part, wantShapes); })) {
            return false;
        }
    }
    while (auto chunk = pool.next()) {
        take(std::move(*chunk));
    }
    if (opt.cancelled()) {
        return false;
    }
    if (c.orderIds) {
        checkOrder(r, c, files);
    }
    reader.join();
    if (metadataFailed) {
        std::rethrow_exception(metadataFailed);
    }
    metadata.check(
        files,
        [&r](Severity severity, const std::string& code, std::string message,
             std::vector<Region> regions, std::string file) {
            r.add(severity, code, std::move(message), std::move(regions), std::move(file));
        },
        &facts);
    return true;
}

std::uint64_t ZdsValidator::checkOrder(Reporter& r, const ZdsCollection& c,
                                       const std::unordered_set<std::string>& files) {
    const ByteSource* src = c.orderIds.get();
    const auto starts = scanLineStarts(*src);
    std::unordered_set<std::string> listed;
    std::uint64_t live = 0;
    for (std::size_t i = 0; i < starts.size(); ++i) {
        const std::uint64_t end = i + 1 < starts.size() ? starts[i + 1] : src->size();
        const ByteView v = src->view(starts[i], end - starts[i]);
        std::string id(asText(v.bytes));
        while (!id.empty() && (id.back() == '\n' || id.back() == '\r')) {
            id.pop_back();
        }
        const Region line{src, starts[i], end - starts[i]};
        if (id.empty()) {
            continue;
        }
        if (!listed.insert(id).second) {
            r.error("ZDS-ORDER-DUPLICATE", "order.ids lists " + quoteName(id) + " twice", line);
            continue;
        }
        if (files.count(id) == 0) {
            r.error("ZDS-ORDER-MISSING",
                    "order.ids lists " + quoteName(id) + " but docs/" + id + ".json does not exist",
                    line);
            continue;
        }
        ++live;
    }
    for (const std::string& id : files) {
        if (listed.count(id) == 0) {
            r.warning("ZDS-ORDER-UNLISTED", "docs/" + id + ".json is not listed in order.ids",
                      whole(c.orderIds));
        }
    }
    return live;
}

}  // namespace strata::zds
