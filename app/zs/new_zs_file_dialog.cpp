#include "new_zs_file_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QProgressDialog>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "formats/zs/zs_writer.h"
#include "model/core/job.h"
#include "model/core/job_runner.h"

namespace strata::gui {

namespace {

QWidget* withBrowse(QLineEdit* edit, QWidget* parent, bool save) {
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    auto* browse = new QPushButton(QObject::tr("Browse…"), row);
    layout->addWidget(browse);
    QObject::connect(browse, &QPushButton::clicked, row, [edit, parent, save] {
        const QString path =
            save ? QFileDialog::getSaveFileName(parent, QObject::tr("New ZS file"), edit->text(),
                                                QObject::tr("ZS files (*.zs);;All files (*)"))
                 : QFileDialog::getOpenFileName(parent, QObject::tr("Sorted input"), edit->text());
        if (!path.isEmpty()) {
            edit->setText(path);
        }
    });
    return row;
}

}  // namespace

NewZsFileDialog::NewZsFileDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("New ZS File from Text"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    layout->addLayout(form);

    input_ = new QLineEdit(this);
    output_ = new QLineEdit(this);
    form->addRow(tr("Sorted input:"), withBrowse(input_, this, false));
    form->addRow(tr("Output:"), withBrowse(output_, this, true));

    codec_ = new QComboBox(this);
    codec_->addItem(tr("LZMA2 (default)"), QStringLiteral("lzma"));
    codec_->addItem(tr("deflate"), QStringLiteral("deflate"));
    codec_->addItem(tr("none"), QStringLiteral("none"));
    form->addRow(tr("Codec:"), codec_);
    auto* levelRow = new QWidget(this);
    auto* levelLayout = new QHBoxLayout(levelRow);
    levelLayout->setContentsMargins(0, 0, 0, 0);
    level_ = new QSpinBox(levelRow);
    level_->setRange(0, 9);
    extreme_ = new QCheckBox(tr("extreme (e)"), levelRow);
    extreme_->setChecked(true);
    levelLayout->addWidget(level_);
    levelLayout->addWidget(extreme_);
    levelLayout->addStretch();
    form->addRow(tr("Level:"), levelRow);

    blockSize_ = new QSpinBox(this);
    blockSize_->setRange(1, 1 << 30);
    blockSize_->setValue(393216);
    blockSize_->setSuffix(tr(" bytes"));
    form->addRow(tr("Approximate block size:"), blockSize_);
    branching_ = new QSpinBox(this);
    branching_->setRange(2, 1 << 20);
    branching_->setValue(1024);
    form->addRow(tr("Branching factor:"), branching_);

    framing_ = new QComboBox(this);
    framing_->addItem(tr("Terminated records"));
    framing_->addItem(tr("Length-prefixed (uleb128)"));
    framing_->addItem(tr("Length-prefixed (u64le)"));
    form->addRow(tr("Input records:"), framing_);
    terminator_ = new QLineEdit(QStringLiteral("\\n"), this);
    terminator_->setToolTip(tr("Escapes: \\n \\r \\t \\0 \\\\ \\xNN"));
    form->addRow(tr("Terminator:"), terminator_);
    metadata_ = new QPlainTextEdit(QStringLiteral("{}"), this);
    metadata_->setMaximumHeight(90);
    form->addRow(tr("Metadata (JSON object):"), metadata_);

    error_ = new QLabel(this);
    error_->setStyleSheet(QStringLiteral("color: #d03030"));
    error_->setWordWrap(true);
    layout->addWidget(error_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Create"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &NewZsFileDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &NewZsFileDialog::reject);
    connect(codec_, &QComboBox::currentIndexChanged, this, &NewZsFileDialog::updateEnabled);
    connect(framing_, &QComboBox::currentIndexChanged, this, &NewZsFileDialog::updateEnabled);
    updateEnabled();
}

void NewZsFileDialog::updateEnabled() {
    const QString codec = codec_->currentData().toString();
    level_->setEnabled(codec != QLatin1String("none"));
    extreme_->setEnabled(codec == QLatin1String("lzma"));
    if (codec == QLatin1String("deflate") && level_->value() == 0 && !level_->hasFocus()) {
        level_->setValue(6);  // the writer's deflate default
    }
    terminator_->setEnabled(framing_->currentIndex() == 0);
}

std::optional<model::ZsMakeRequest> NewZsFileDialog::request(QString* error) const {
    const auto failWith = [error](const QString& text) {
        if (error) {
            *error = text;
        }
        return std::nullopt;
    };
    model::ZsMakeRequest r;
    r.input = input_->text();
    r.output = output_->text();
    if (r.input.isEmpty() || !QFileInfo(r.input).isFile()) {
        return failWith(tr("Choose an input file that exists."));
    }
    if (r.output.isEmpty()) {
        return failWith(tr("Choose where to write the new file."));
    }
    if (QFileInfo(r.output).absoluteFilePath() == QFileInfo(r.input).absoluteFilePath()) {
        return failWith(tr("The output must not be the input."));
    }
    const QString codec = codec_->currentData().toString();
    if (codec == QLatin1String("none")) {
        r.options.codec = zs::Codec::None;
    } else if (codec == QLatin1String("deflate")) {
        r.options.codec = zs::Codec::Deflate;
        r.options.deflateLevel = level_->value();
    } else {
        r.options.codec = zs::Codec::Lzma2;
        r.options.lzmaPreset = {unsigned(level_->value()), extreme_->isChecked()};
    }
    r.options.approxBlockSize = std::uint64_t(blockSize_->value());
    r.options.branchingFactor = std::uint64_t(branching_->value());
    r.framing = model::ZsMakeRequest::Framing(framing_->currentIndex());
    if (r.framing == model::ZsMakeRequest::Framing::Terminated) {
        QString problem;
        r.terminator = model::unescapeText(terminator_->text(), &problem);
        if (!problem.isEmpty()) {
            return failWith(tr("Terminator: %1").arg(problem));
        }
        if (r.terminator.empty()) {
            return failWith(tr("The terminator must not be empty."));
        }
    }
    try {
        r.metadata = zs::parseMetadata(metadata_->toPlainText().toStdString());
    } catch (const std::exception& e) {
        return failWith(tr("Metadata: %1").arg(QString::fromUtf8(e.what())));
    }
    return r;
}

void NewZsFileDialog::accept() {
    QString problem;
    if (!request(&problem)) {
        error_->setText(problem);
        return;
    }
    QDialog::accept();
}

model::Job* startNewZsFile(QWidget* parent, model::JobRunner& runner,
                           const model::ZsMakeRequest& request, ZsFileCreated created) {
    model::Job* job = model::startZsMake(runner, request);
    auto* progress = new QProgressDialog(job->title(), QObject::tr("Cancel"), 0, 1000, parent);
    progress->setAttribute(Qt::WA_DeleteOnClose);
    progress->setMinimumDuration(300);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    QPointer<model::Job> guard(job);
    QObject::connect(job, &model::Job::progressChanged, progress,
                     [progress](double f, const QString& text) {
                         progress->setValue(int(f * 1000));
                         if (!text.isEmpty()) {
                             progress->setLabelText(text);
                         }
                     });
    QObject::connect(progress, &QProgressDialog::canceled, job, [guard] {
        if (guard) {
            guard->cancel();
        }
    });
    QObject::connect(
        job, &model::Job::finished, progress, [progress, guard, parent, request, created] {
            progress->close();
            if (guard && guard->state() == model::Job::State::Finished && created) {
                created(request.output);
            }
            if (guard && guard->state() == model::Job::State::Failed && parent &&
                parent->isVisible()) {
                QMessageBox::warning(
                    parent, QObject::tr("New ZS file"),
                    QObject::tr("Could not write %1:\n%2").arg(request.output, guard->errorText()));
            }
        });
    return job;
}

void showNewZsFileDialog(QWidget* parent, model::JobRunner& runner, ZsFileCreated created) {
    NewZsFileDialog dialog(parent);
    if (dialog.exec() != QDialog::Accepted) {
        return;
    }
    if (const auto request = dialog.request()) {
        startNewZsFile(parent, runner, *request, std::move(created));
    }
}

}  // namespace strata::gui
