// Edits a zTensor document's content (attributes, tensor names, deletions, encodings, digests)
// as a pending plan: every change is one QUndoCommand on the document's undo stack, and saving
// writes a new file from the plan in a background job.
#pragma once

#include <QString>

#include <cstddef>
#include <memory>
#include <vector>

#include "formats/ztensor/zt_file.h"
#include "model/core/format_editor.h"
#include "model/ztensor/zt_edit_plan.h"

namespace strata::model {

class ZtEditor : public FormatEditor {
    Q_OBJECT
public:
    ZtEditor(Document& document, std::shared_ptr<const strata::ztensor::ZtFile> file);

    const std::shared_ptr<const strata::ztensor::ZtFile>& file() const { return file_; }
    const ZtEditPlan& plan() const { return plan_; }

    // Each pushes one undo step; false (and *error) when the edit is refused or changes nothing.
    bool renameTensor(std::size_t tensor, const QString& name, QString* error = nullptr);
    bool setDeleted(const std::vector<std::size_t>& tensors, bool deleted);
    bool setEncoding(const std::vector<std::size_t>& tensors, ZtEncodingChoice encoding);
    bool setDigest(const std::vector<std::size_t>& tensors, ZtDigestChoice digest);
    bool setZstdLevel(int level);
    // Adds the attribute, or changes its value.
    bool setAttribute(const QString& key, const QString& value, QString* error = nullptr);
    bool renameAttribute(const QString& key, const QString& newKey, QString* error = nullptr);
    bool removeAttribute(const QString& key);

    // Replaces the plan (undo commands call this); emits planChanged.
    void applyPlan(const ZtEditPlan& plan);

    Job* startSave(JobRunner& runner, const QString& path, QString* error) override;
    bool savesToFolder() const override { return false; }

signals:
    void planChanged();

private:
    bool push(const QString& text, ZtEditPlan next);

    std::shared_ptr<const strata::ztensor::ZtFile> file_;
    ZtEditPlan plan_;
};

}  // namespace strata::model
