#include "ozdf_editor.h"

#include <QFileInfo>
#include <QPointer>
#include <QTimer>

#include "formats/ozdf/ozdf_save.h"
#include "formats/ozdf/ozdf_writer.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"

namespace strata::model {

namespace fs = std::filesystem;

namespace {

bool samePath(const QString& a, const QString& b) {
    const QFileInfo fa(a);
    const QFileInfo fb(b);
    const QString ca = fa.canonicalFilePath();
    return ca.isEmpty() ? fa.absoluteFilePath() == fb.absoluteFilePath()
                        : ca == fb.canonicalFilePath();
}

struct SaveInput {
    ozdf::Corpus corpus;
    std::vector<ozdf::DocumentFootprint> onDisk;
    bool isCorpus = true;
    bool inPlace = true;
    fs::path target;
};

void runSave(const SaveInput& in, const ProgressCallback& progress) {
    ozdf::SaveOptions options;
    options.progress = progress;
    if (in.isCorpus) {
        if (in.inPlace) {
            ozdf::saveCorpusInPlace(in.corpus, in.corpus.path, in.onDisk, options);
        } else {
            ozdf::saveCorpusToFolder(in.corpus, in.target, options);
        }
        return;
    }
    ozdf::Document document = in.corpus.documents.front();
    if (in.inPlace) {
        const ozdf::DocumentFootprint* before = in.onDisk.empty() ? nullptr : &in.onDisk.front();
        ozdf::saveDocumentInPlace(document, in.corpus.path, before, options);
        return;
    }
    // Save As: the document takes the new name.
    document.filename = in.target.filename().string();
    std::error_code ec;
    if (document.isDirectory && fs::exists(in.target, ec) && !fs::is_empty(in.target, ec)) {
        throw ozdf::WriteError(in.target.string() + " exists and is not an empty folder");
    }
    ozdf::saveDocumentInPlace(document, in.target.parent_path(), nullptr, options);
}

}  // namespace

OzdfEditor* OzdfEditor::create(Document& document, QString* error) {
    // Reuse what opening the document read; read the files only when it kept nothing.
    std::unique_ptr<OzdfSession> session;
    if (document.opened()) {
        session = OzdfSession::fromOpened(*document.opened());
    }
    if (!session) {
        session = OzdfSession::load(document.path(), error);
    }
    if (!session) {
        return nullptr;
    }
    return new OzdfEditor(document, std::move(session));
}

OzdfEditor::OzdfEditor(Document& document, std::unique_ptr<OzdfSession> session)
    : FormatEditor(document), session_(std::move(session)) {}

OzdfEditor::~OzdfEditor() = default;

bool OzdfEditor::savesToFolder() const {
    return session_->isCorpus() ||
           (session_->documentCount() == 1 && session_->document(0).isDirectory);
}

Job* OzdfEditor::startSave(JobRunner& runner, const QString& path, QString* error) {
    if (path.isEmpty()) {
        if (error != nullptr) {
            *error = tr("no path to save to");
        }
        return nullptr;
    }
    auto input = std::make_shared<SaveInput>();
    input->corpus = session_->corpus();
    input->onDisk = session_->onDisk();
    input->isCorpus = session_->isCorpus();
    input->inPlace = samePath(path, session_->openedPath());
    input->target = fs::path(path.toStdString());
    const int undoIndex = document().undoStack()->index();
    QPointer<OzdfEditor> self(this);
    saving_ = true;
    Job* job = runner.start(tr("Save %1").arg(path), [input, undoIndex, self, path](JobContext& c) {
        try {
            runSave(*input, c.progressCallback());
        } catch (const std::exception& e) {
            c.fail(QString::fromStdString(e.what()));
            return;
        }
        c.post([self, input, undoIndex, path] {
            if (!self) {
                return;
            }
            if (input->inPlace) {
                self->session_->setOnDisk(ozdf::footprintsOf(input->corpus));
            }
            self->document().markSaved(undoIndex, path);
            emit self->savedTo(path, input->inPlace);
        });
    });
    connect(job, &Job::finished, this, [this] {
        // The watcher's notifications of this save's own writes arrive a little later.
        QTimer::singleShot(1500, this, [this] { saving_ = false; });
    });
    return job;
}

Job* OzdfEditor::startWriteCopy(JobRunner& runner, const QString& path, QString* error) {
    if (path.isEmpty() || samePath(path, session_->openedPath())) {
        if (error != nullptr) {
            *error = tr("a copy for review needs a path of its own");
        }
        return nullptr;
    }
    auto input = std::make_shared<SaveInput>();
    input->corpus = session_->corpus();
    input->isCorpus = session_->isCorpus();
    input->inPlace = false;
    input->target = fs::path(path.toStdString());
    return runner.start(tr("Writing changes to review"), [input](JobContext& c) {
        try {
            runSave(*input, c.progressCallback());
        } catch (const std::exception& e) {
            c.fail(QString::fromStdString(e.what()));
        }
    });
}

bool OzdfEditor::reload(QString* error) {
    std::unique_ptr<OzdfSession> fresh = OzdfSession::load(session_->openedPath(), error);
    if (!fresh) {
        return false;
    }
    document().undoStack()->clear();
    session_->reset(fresh->corpus());
    return true;
}

}  // namespace strata::model
