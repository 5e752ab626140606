#include "shardlake_alias_editor.h"

#include <QPointer>

#include "formats/shardlake/shardlake_alias_edit.h"
#include "model/core/document.h"
#include "model/core/job_runner.h"

namespace strata::model {

namespace fs = std::filesystem;

ShardlakeAliasEditor::ShardlakeAliasEditor(Document& document, fs::path root,
                                           QMap<QString, QString> aliases, QStringList versions)
    : FormatEditor(document),
      root_(std::move(root)),
      targets_(aliases),
      saved_(std::move(aliases)),
      versions_(std::move(versions)) {}

ShardlakeAliasEditor::~ShardlakeAliasEditor() = default;

QStringList ShardlakeAliasEditor::aliasesOf(const QString& version) const {
    QStringList out;
    for (auto it = targets_.cbegin(); it != targets_.cend(); ++it) {
        if (it.value() == version) {
            out << it.key();
        }
    }
    return out;
}

QString ShardlakeAliasEditor::aliasNameProblem(const QString& name) {
    const std::string problem = shardlake::nameProblem(name.toStdString());
    return problem.empty() ? QString() : QString::fromStdString(problem);
}

bool ShardlakeAliasEditor::setAliasTarget(const QString& alias, const QString& version,
                                          QString* error) {
    QString problem = aliasNameProblem(alias);
    if (problem.isEmpty() && !versions_.contains(version)) {
        problem = tr("no index version \"%1\" in this root").arg(version);
    }
    if (problem.isEmpty() && targets_.value(alias) == version) {
        problem = tr("%1 already points at %2").arg(alias, version);
    }
    if (!problem.isEmpty()) {
        if (error != nullptr) {
            *error = problem;
        }
        return false;
    }
    document().undoStack()->push(
        new SetAliasTargetCommand(this, alias, targets_.value(alias), version));
    return true;
}

void ShardlakeAliasEditor::applyTarget(const QString& alias, const QString& version) {
    if (version.isEmpty()) {
        targets_.remove(alias);
    } else {
        targets_.insert(alias, version);
    }
    emit aliasChanged(alias);
}

std::string ShardlakeAliasEditor::aliasJson(const std::string& alias, const std::string& version) {
    return shardlake::aliasFileText(alias, version);
}

void ShardlakeAliasEditor::markWritten(const QMap<QString, QString>& written) {
    for (auto it = written.cbegin(); it != written.cend(); ++it) {
        saved_.insert(it.key(), it.value());
        emit aliasChanged(it.key());
    }
}

Job* ShardlakeAliasEditor::startSave(JobRunner& runner, const QString& path, QString* error) {
    const fs::path target = fs::path(path.toStdString());
    std::error_code code;
    const bool inPlace = fs::equivalent(target, root_, code);
    if (!inPlace && !fs::is_directory(target / "indexes")) {
        if (error != nullptr) {
            *error = tr("%1 is not a Shardlake storage root (it has no indexes folder)").arg(path);
        }
        return nullptr;
    }
    QMap<QString, QString> toWrite;
    for (auto it = targets_.cbegin(); it != targets_.cend(); ++it) {
        if (!inPlace || saved_.value(it.key()) != it.value()) {
            toWrite.insert(it.key(), it.value());
        }
    }
    const int undoIndex = document().undoStack()->index();
    QPointer<ShardlakeAliasEditor> self(this);
    return runner.start(tr("Save aliases"), [self, target, toWrite, undoIndex, path,
                                             inPlace](JobContext& context) {
        int done = 0;
        for (auto it = toWrite.cbegin(); it != toWrite.cend(); ++it) {
            if (context.cancelled()) {
                return;
            }
            const shardlake::AliasWrite write =
                shardlake::writeAlias(target, it.key().toStdString(), it.value().toStdString());
            if (!write.ok) {
                context.fail(
                    tr("aliases/%1.json: %2").arg(it.key(), QString::fromStdString(write.error)));
                return;
            }
            context.setProgress(static_cast<double>(++done) / static_cast<double>(toWrite.size()),
                                tr("aliases/%1.json").arg(it.key()));
        }
        context.post([self, toWrite, undoIndex, path, inPlace] {
            if (self && inPlace) {
                self->markWritten(toWrite);
                self->document().markSaved(undoIndex, path);
            }
        });
    });
}

SetAliasTargetCommand::SetAliasTargetCommand(ShardlakeAliasEditor* editor, QString alias,
                                             QString before, QString after)
    : editor_(editor),
      alias_(std::move(alias)),
      before_(std::move(before)),
      after_(std::move(after)) {
    setText(QObject::tr("Point alias %1 at %2").arg(alias_, after_));
}

void SetAliasTargetCommand::undo() {
    editor_->applyTarget(alias_, before_);
}

void SetAliasTargetCommand::redo() {
    editor_->applyTarget(alias_, after_);
}

}  // namespace strata::model
