// "New ZS file from text…": asks for the input, the output and the writer's options, then runs
// the ZS writer as a background job with progress and cancel.
#pragma once

#include <QDialog>

#include <functional>
#include <optional>

#include "model/zs/zs_make_job.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace strata::model {
class Job;
class JobRunner;
}  // namespace strata::model

namespace strata::gui {

class NewZsFileDialog : public QDialog {
    Q_OBJECT
public:
    explicit NewZsFileDialog(QWidget* parent = nullptr);

    QLineEdit* inputEdit() const { return input_; }
    QLineEdit* outputEdit() const { return output_; }
    QComboBox* codecBox() const { return codec_; }
    QSpinBox* levelBox() const { return level_; }
    QCheckBox* extremeBox() const { return extreme_; }
    QSpinBox* blockSizeBox() const { return blockSize_; }
    QSpinBox* branchingBox() const { return branching_; }
    QComboBox* framingBox() const { return framing_; }
    QLineEdit* terminatorEdit() const { return terminator_; }
    QPlainTextEdit* metadataEdit() const { return metadata_; }

    // The request the fields describe, or nothing (and *error says why) when one is invalid.
    std::optional<model::ZsMakeRequest> request(QString* error = nullptr) const;

    void accept() override;

private:
    void updateEnabled();

    QLineEdit* input_ = nullptr;
    QLineEdit* output_ = nullptr;
    QComboBox* codec_ = nullptr;
    QSpinBox* level_ = nullptr;
    QCheckBox* extreme_ = nullptr;
    QSpinBox* blockSize_ = nullptr;
    QSpinBox* branching_ = nullptr;
    QComboBox* framing_ = nullptr;
    QLineEdit* terminator_ = nullptr;
    QPlainTextEdit* metadata_ = nullptr;
    QLabel* error_ = nullptr;
};

// Called with the output path once the new file is complete (to open it, say).
using ZsFileCreated = std::function<void(const QString& path)>;

// Starts the writer job for `request` and shows its progress in a dialog with a Cancel button
// (closed when the job ends; failures are reported in a message box).
model::Job* startNewZsFile(QWidget* parent, model::JobRunner& runner,
                           const model::ZsMakeRequest& request, ZsFileCreated created = {});

// Shows the dialog; when accepted, starts the job. Returns at once after starting it.
void showNewZsFileDialog(QWidget* parent, model::JobRunner& runner, ZsFileCreated created = {});

}  // namespace strata::gui
