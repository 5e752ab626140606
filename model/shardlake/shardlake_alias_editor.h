// Alias editing for a Shardlake storage root: pointing an alias at another index version is an
// undoable command on the document's undo stack, and Save writes the changed alias files
// (aliases/<name>.json) atomically through the formats layer, in the reference's layout.
#pragma once

#include <QMap>
#include <QString>
#include <QStringList>
#include <QUndoCommand>

#include <filesystem>
#include <string>

#include "model/core/format_editor.h"

namespace strata::model {

class ShardlakeAliasEditor : public FormatEditor {
    Q_OBJECT
public:
    // `aliases`: alias name → index version as on disk; `versions`: the index versions present.
    ShardlakeAliasEditor(Document& document, std::filesystem::path root,
                         QMap<QString, QString> aliases, QStringList versions);
    ~ShardlakeAliasEditor() override;

    QStringList aliasNames() const { return targets_.keys(); }
    QStringList indexVersions() const { return versions_; }
    // The alias's current (possibly unsaved) target; empty for an unknown alias.
    QString target(const QString& alias) const { return targets_.value(alias); }
    QString savedTarget(const QString& alias) const { return saved_.value(alias); }
    // Aliases whose current target is `version`.
    QStringList aliasesOf(const QString& version) const;

    // Pushes an undoable command that points `alias` (an existing or a new name) at `version`.
    // Returns false and sets *error for an unknown version, a bad alias name, or no change.
    bool setAliasTarget(const QString& alias, const QString& version, QString* error = nullptr);
    // Applies a target without the undo stack (the command's redo/undo); an empty version
    // removes an alias that was added in this session.
    void applyTarget(const QString& alias, const QString& version);

    // Saving into the document's own root writes the aliases that differ from disk; another
    // folder (a copy of the root) gets every alias.
    Job* startSave(JobRunner& runner, const QString& path, QString* error) override;
    bool savesToFolder() const override { return true; }

    // The alias file as the reference writes it (2-space indented, no final newline).
    static std::string aliasJson(const std::string& alias, const std::string& version);
    // "" when `name` can be an alias file name, else why not.
    static QString aliasNameProblem(const QString& name);

signals:
    void aliasChanged(const QString& alias);

private:
    void markWritten(const QMap<QString, QString>& written);

    std::filesystem::path root_;
    QMap<QString, QString> targets_;
    QMap<QString, QString> saved_;
    QStringList versions_;
};

// Points one alias at another index version (undo points it back).
class SetAliasTargetCommand : public QUndoCommand {
public:
    SetAliasTargetCommand(ShardlakeAliasEditor* editor, QString alias, QString before,
                          QString after);
    void undo() override;
    void redo() override;

private:
    ShardlakeAliasEditor* editor_;
    QString alias_;
    QString before_;
    QString after_;
};

}  // namespace strata::model
