// The Shardlake tabs of a DocumentView: for a storage root (or one index folder) the root
// browser with alias editing, the shard table with records and centroids, the PCA scatter and
// the query panel; for a lone shard or quantizer, its header and vectors.
#include <QMap>
#include <QStringList>
#include <QTabWidget>

#include "app/gui/document_view.h"
#include "app/gui/format_views.h"
#include "model/core/document.h"
#include "model/shardlake/shardlake_alias_editor.h"
#include "model/shardlake/shardlake_session.h"
#include "shardlake_build_dialog.h"
#include "shardlake_file_view.h"
#include "shardlake_pca_view.h"
#include "shardlake_query_panel.h"
#include "shardlake_root_browser.h"
#include "shardlake_shards_panel.h"

namespace strata::gui {

namespace {

using model::ShardlakeSession;

// The alias editor of a storage root: aliases as on disk, index versions present.
model::ShardlakeAliasEditor* makeAliasEditor(model::Document& document,
                                             const ShardlakeSession& session) {
    QMap<QString, QString> aliases;
    for (const model::ShardlakeAliasInfo& alias : session.aliases()) {
        if (!alias.target.empty()) {
            aliases.insert(QString::fromStdString(alias.name),
                           QString::fromStdString(alias.target));
        }
    }
    QStringList versions;
    for (const model::ShardlakeIndexInfo& index : session.indexes()) {
        versions << QString::fromStdString(index.version);
    }
    auto* editor = new model::ShardlakeAliasEditor(document, session.rootPath(), aliases, versions);
    document.setEditor(editor);
    return editor;
}

void installRootViews(DocumentView& view, ShardlakeSession* session) {
    QTabWidget* tabs = view.centreTabs();
    model::ShardlakeAliasEditor* editor = session->kind() == ShardlakeSession::Kind::Root
                                              ? makeAliasEditor(*view.document(), *session)
                                              : nullptr;
    auto* browser = new ShardlakeRootBrowser(*session, editor, tabs);
    browser->setObjectName(QStringLiteral("shardlakeRootBrowser"));
    auto* shards = new ShardlakeShardsPanel(view, *session, tabs);
    shards->setObjectName(QStringLiteral("shardlakeShards"));
    auto* pca = new ShardlakePcaView(view, *session, tabs);
    pca->setObjectName(QStringLiteral("shardlakePca"));
    auto* query = new ShardlakeQueryPanel(view, *session, tabs);
    query->setObjectName(QStringLiteral("shardlakeQuery"));
    const int browserTab = tabs->addTab(browser, QObject::tr("Storage root"));
    const int shardsTab = tabs->addTab(shards, QObject::tr("Shards"));
    tabs->addTab(pca, QObject::tr("PCA"));
    const int queryTab = tabs->addTab(query, QObject::tr("Query"));
    // A folder has no bytes of its own: the root browser is the useful first view.
    tabs->setCurrentIndex(browserTab);

    QObject::connect(browser, &ShardlakeRootBrowser::indexActivated, shards,
                     [tabs, shards, shardsTab](const QString& version) {
                         shards->showIndex(version);
                         tabs->setCurrentIndex(shardsTab);
                     });
    QObject::connect(shards, &ShardlakeShardsPanel::recordPicked, query,
                     [tabs, query, queryTab](const QString& version,
                                             const std::vector<float>& vector, quint64 id) {
                         query->setIndex(version);
                         if (vector.empty()) {
                             query->setQueryId(id);
                         } else {
                             query->setQueryVector(vector);
                         }
                         tabs->setCurrentIndex(queryTab);
                     });
    if (session->kind() == ShardlakeSession::Kind::Root) {
        installBuildAction(view, *session, *browser);
    }
}

}  // namespace

void installShardlakeViews(DocumentView& view) {
    auto* session = new ShardlakeSession(view.document()->opened(), &view);
    session->setObjectName(QStringLiteral("shardlakeSession"));
    switch (session->kind()) {
        case ShardlakeSession::Kind::Root:
        case ShardlakeSession::Kind::Index:
            installRootViews(view, session);
            break;
        case ShardlakeSession::Kind::Shard:
        case ShardlakeSession::Kind::CoarseQuantizer: {
            auto* file = new ShardlakeFileView(view, *session, view.centreTabs());
            file->setObjectName(QStringLiteral("shardlakeFile"));
            view.centreTabs()->setCurrentIndex(view.centreTabs()->addTab(
                file, session->kind() == ShardlakeSession::Kind::Shard ? QObject::tr("Shard")
                                                                       : QObject::tr("Centroids")));
            break;
        }
        case ShardlakeSession::Kind::Other:
            break;
    }
}

}  // namespace strata::gui
