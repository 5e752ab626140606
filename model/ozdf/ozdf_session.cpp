#include "ozdf_session.h"

#include "formats/common/byte_source.h"
#include "formats/ozdf/ozdf_format.h"
#include "formats/ozdf/ozdf_listed_corpus.h"
#include "formats/ozdf/ozdf_parser.h"

namespace strata::model {

namespace fs = std::filesystem;

namespace {

bool isCorpusFolder(const fs::path& path) {
    std::error_code ec;
    return fs::is_directory(path, ec) && !fs::exists(path / "_metadata.ozdf", ec) &&
           !fs::exists(path / ".ozdf_writing", ec);
}

// The folder that holds a document, also when its path ends with a separator.
fs::path folderHolding(const fs::path& document) {
    fs::path clean = document;
    if (!clean.has_filename() && clean.has_parent_path()) {
        clean = clean.parent_path();
    }
    return clean.parent_path();
}

}  // namespace

std::unique_ptr<OzdfSession> OzdfSession::load(const QString& path, QString* error) {
    const fs::path p = fs::path(path.toStdString());
    try {
        if (isCorpusFolder(p)) {
            return std::make_unique<OzdfSession>(ozdf::readCorpus(p), true);
        }
        ozdf::Corpus single;
        single.path = folderHolding(p);
        single.documents.push_back(ozdf::readDocument(p));
        return std::make_unique<OzdfSession>(std::move(single), false);
    } catch (const std::exception& e) {
        if (error != nullptr) {
            *error = QString::fromStdString(e.what());
        }
        return nullptr;
    }
}

std::unique_ptr<OzdfSession> OzdfSession::fromOpened(const OpenedDocument& opened) {
    if (const auto corpus = ozdf::openedAs<ozdf::Corpus>(opened)) {
        return std::make_unique<OzdfSession>(*corpus, true);
    }
    if (const auto listed = ozdf::openedAs<ozdf::ListedCorpus>(opened)) {
        return std::make_unique<OzdfSession>(*listed->corpus(), true);
    }
    if (const auto document = ozdf::openedAs<ozdf::Document>(opened)) {
        ozdf::Corpus single;
        single.path = folderHolding(document->path);
        single.documents.push_back(*document);
        return std::make_unique<OzdfSession>(std::move(single), false);
    }
    return nullptr;
}

OzdfSession::OzdfSession(ozdf::Corpus corpus, bool isCorpus, QObject* parent)
    : QObject(parent),
      corpus_(std::move(corpus)),
      isCorpus_(isCorpus),
      revisions_(corpus_.documents.size(), 0),
      onDisk_(ozdf::footprintsOf(corpus_)) {}

OzdfSession::OzdfSession(ozdf::Corpus corpus, std::vector<ozdf::DocumentFootprint> onDisk,
                         QObject* parent)
    : QObject(parent),
      corpus_(std::move(corpus)),
      isCorpus_(true),
      revisions_(corpus_.documents.size(), 0),
      onDisk_(std::move(onDisk)) {}

QString OzdfSession::openedPath() const {
    if (isCorpus_ || corpus_.documents.empty()) {
        return QString::fromStdString(corpus_.path.string());
    }
    return QString::fromStdString((corpus_.path / corpus_.documents.front().filename).string());
}

const ozdf::Document& OzdfSession::document(int index) const {
    return corpus_.documents.at(static_cast<std::size_t>(index));
}

quint64 OzdfSession::revision(int index) const {
    return revisions_.at(static_cast<std::size_t>(index));
}

int OzdfSession::indexOf(const std::string& filename) const {
    for (int i = 0; i < documentCount(); ++i) {
        if (document(i).filename == filename) {
            return i;
        }
    }
    return -1;
}

void OzdfSession::replaceDocument(int index, ozdf::Document document) {
    corpus_.documents.at(static_cast<std::size_t>(index)) = std::move(document);
    revisions_[static_cast<std::size_t>(index)] = nextRevision_++;
    emit documentChanged(index);
}

void OzdfSession::insertDocument(int index, ozdf::Document document) {
    const auto at = static_cast<std::ptrdiff_t>(index);
    corpus_.documents.insert(corpus_.documents.begin() + at, std::move(document));
    revisions_.insert(revisions_.begin() + at, nextRevision_++);
    emit documentInserted(index);
}

void OzdfSession::removeDocument(int index) {
    const auto at = static_cast<std::ptrdiff_t>(index);
    corpus_.documents.erase(corpus_.documents.begin() + at);
    revisions_.erase(revisions_.begin() + at);
    emit documentRemoved(index);
}

void OzdfSession::reset(ozdf::Corpus corpus) {
    emit aboutToReset();
    corpus_ = std::move(corpus);
    revisions_.assign(corpus_.documents.size(), 0);
    onDisk_ = ozdf::footprintsOf(corpus_);
    emit wasReset();
}

void OzdfSession::setOnDisk(std::vector<ozdf::DocumentFootprint> footprints) {
    onDisk_ = std::move(footprints);
}

}  // namespace strata::model
