#include "zt_editor.h"

#include <QPointer>
#include <QUndoCommand>

#include <algorithm>
#include <exception>

#include "model/core/counted_text.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"

namespace strata::model {

namespace {

// One edit: the plans before and after it.
class ZtPlanCommand final : public QUndoCommand {
public:
    ZtPlanCommand(ZtEditor& editor, const QString& text, ZtEditPlan before, ZtEditPlan after)
        : QUndoCommand(text),
          editor_(editor),
          before_(std::move(before)),
          after_(std::move(after)) {}

    void redo() override { editor_.applyPlan(after_); }
    void undo() override { editor_.applyPlan(before_); }

private:
    ZtEditor& editor_;
    ZtEditPlan before_;
    ZtEditPlan after_;
};

auto findAttribute(ZtEditPlan& plan, const std::string& key) {
    return std::find_if(plan.attributes.begin(), plan.attributes.end(),
                        [&](const auto& entry) { return entry.first == key; });
}

bool fail(QString* error, const QString& text) {
    if (error != nullptr) {
        *error = text;
    }
    return false;
}

}  // namespace

ZtEditor::ZtEditor(Document& document, std::shared_ptr<const ztensor::ZtFile> file)
    : FormatEditor(document), file_(std::move(file)), plan_(ztInitialPlan(*file_)) {}

void ZtEditor::applyPlan(const ZtEditPlan& plan) {
    plan_ = plan;
    emit planChanged();
}

bool ZtEditor::push(const QString& text, ZtEditPlan next) {
    if (next == plan_) {
        return false;
    }
    document().undoStack()->push(new ZtPlanCommand(*this, text, plan_, std::move(next)));
    return true;
}

bool ZtEditor::renameTensor(std::size_t tensor, const QString& name, QString* error) {
    if (tensor >= plan_.tensors.size()) {
        return fail(error, tr("No such tensor."));
    }
    const std::string wanted = name.toStdString();
    if (wanted.empty()) {
        return fail(error, tr("A tensor name cannot be empty."));
    }
    for (std::size_t i = 0; i < plan_.tensors.size(); ++i) {
        if (i != tensor && !plan_.tensors[i].deleted && plan_.tensors[i].name == wanted) {
            return fail(error, tr("Another tensor is already called \"%1\".").arg(name));
        }
    }
    ZtEditPlan next = plan_;
    const QString old = QString::fromStdString(next.tensors[tensor].name);
    next.tensors[tensor].name = wanted;
    return push(tr("Rename tensor %1 to %2").arg(old, name), std::move(next)) ||
           fail(error, tr("The name is unchanged."));
}

bool ZtEditor::setDeleted(const std::vector<std::size_t>& tensors, bool deleted) {
    ZtEditPlan next = plan_;
    for (std::size_t t : tensors) {
        if (t < next.tensors.size()) {
            next.tensors[t].deleted = deleted;
        }
    }
    const QString what = counted(tensors.size(), tr("tensor"));
    return push(deleted ? tr("Delete %1").arg(what) : tr("Restore %1").arg(what), std::move(next));
}

bool ZtEditor::setEncoding(const std::vector<std::size_t>& tensors, ZtEncodingChoice encoding) {
    ZtEditPlan next = plan_;
    for (std::size_t t : tensors) {
        if (t < next.tensors.size()) {
            next.tensors[t].encoding = encoding;
        }
    }
    static const char* const kNames[] = {"as stored", "raw", "zstd"};
    return push(tr("Re-encode %1 %2")
                    .arg(counted(tensors.size(), tr("tensor")))
                    .arg(QLatin1String(kNames[static_cast<int>(encoding)])),
                std::move(next));
}

bool ZtEditor::setDigest(const std::vector<std::size_t>& tensors, ZtDigestChoice digest) {
    ZtEditPlan next = plan_;
    for (std::size_t t : tensors) {
        if (t < next.tensors.size()) {
            next.tensors[t].digest = digest;
        }
    }
    static const char* const kNames[] = {"as stored", "none", "crc32c", "sha256"};
    return push(tr("Digests of %1: %2")
                    .arg(counted(tensors.size(), tr("tensor")))
                    .arg(QLatin1String(kNames[static_cast<int>(digest)])),
                std::move(next));
}

bool ZtEditor::setZstdLevel(int level) {
    ZtEditPlan next = plan_;
    next.zstdLevel = std::clamp(level, 1, 22);
    return push(tr("zstd level %1").arg(next.zstdLevel), std::move(next));
}

bool ZtEditor::setAttribute(const QString& key, const QString& value, QString* error) {
    if (key.isEmpty()) {
        return fail(error, tr("An attribute needs a key."));
    }
    ZtEditPlan next = plan_;
    const auto it = findAttribute(next, key.toStdString());
    if (it == next.attributes.end()) {
        next.attributes.emplace_back(key.toStdString(), value.toStdString());
    } else {
        it->second = value.toStdString();
    }
    return push(tr("Set attribute %1").arg(key), std::move(next)) ||
           fail(error, tr("The value is unchanged."));
}

bool ZtEditor::renameAttribute(const QString& key, const QString& newKey, QString* error) {
    if (newKey.isEmpty()) {
        return fail(error, tr("An attribute needs a key."));
    }
    ZtEditPlan next = plan_;
    const auto it = findAttribute(next, key.toStdString());
    if (it == next.attributes.end()) {
        return fail(error, tr("No attribute \"%1\".").arg(key));
    }
    if (key != newKey && findAttribute(next, newKey.toStdString()) != next.attributes.end()) {
        return fail(error, tr("An attribute \"%1\" exists already.").arg(newKey));
    }
    it->first = newKey.toStdString();
    return push(tr("Rename attribute %1 to %2").arg(key, newKey), std::move(next)) ||
           fail(error, tr("The key is unchanged."));
}

bool ZtEditor::removeAttribute(const QString& key) {
    ZtEditPlan next = plan_;
    const auto it = findAttribute(next, key.toStdString());
    if (it == next.attributes.end()) {
        return false;
    }
    next.attributes.erase(it);
    return push(tr("Remove attribute %1").arg(key), std::move(next));
}

Job* ZtEditor::startSave(JobRunner& runner, const QString& path, QString* error) {
    if (const std::string problem = ztPlanProblem(*file_, plan_); !problem.empty()) {
        fail(error, QString::fromStdString(problem));
        return nullptr;
    }
    const int undoIndex = document().undoStack()->index();
    QPointer<Document> document(&this->document());
    // The job works on copies, so later edits do not race with it.
    return runner.start(tr("Saving %1").arg(path),
                        [file = file_, plan = plan_, path, undoIndex, document](JobContext& c) {
                            try {
                                ztSavePlan(*file, plan, path.toStdString(), &c.cancelToken(),
                                           [&c](double f) { c.setProgress(f); });
                            } catch (const std::exception& e) {
                                if (!c.cancelled()) {
                                    c.fail(QString::fromUtf8(e.what()));
                                }
                                return;
                            }
                            c.post([document, undoIndex, path] {
                                if (document) {
                                    document->markSaved(undoIndex, path);
                                }
                            });
                        });
}

}  // namespace strata::model
