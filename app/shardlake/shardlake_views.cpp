// The Shardlake tabs of a DocumentView: for a storage root (or one index folder) the root
// browser with alias editing, the shard table with records and centroids, the PCA scatter and
// the query panel; for a lone shard or quantizer, its header and vectors.
#include "shardlake_views.h"

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QLabel>
#include <QMap>
#include <QStringList>
#include <QTabWidget>
#include <QThread>
#include <QtConcurrent/QtConcurrentRun>

#include <memory>

#include "app/widgets/document_view.h"
#include "app/widgets/format_views.h"
#include "formats/shardlake/shardlake_format.h"
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

void installSessionViews(DocumentView& view, ShardlakeSession* session) {
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

using SessionPtr = std::shared_ptr<ShardlakeSession>;

// A remote root's manifests, aliases and shard headers are read on a worker, so the window
// never waits for the server: a placeholder tab until the session is ready, then the views.
void installViewsWhenRead(DocumentView& view) {
    QTabWidget* tabs = view.centreTabs();
    auto* placeholder = new QLabel(
        QObject::tr("Reading the storage root's manifests and shard headers from the server…"),
        tabs);
    placeholder->setObjectName(QStringLiteral("shardlakeLoading"));
    placeholder->setAlignment(Qt::AlignCenter);
    tabs->setCurrentIndex(tabs->addTab(placeholder, QObject::tr("Storage root")));
    auto* watcher = new QFutureWatcher<SessionPtr>(&view);
    QThread* guiThread = QCoreApplication::instance()->thread();
    watcher->setFuture(QtConcurrent::run([opened = view.document()->opened(), guiThread] {
        // Deleted on the GUI thread's event loop whoever lets go of it last (the view, or
        // the future when the tab was closed first).
        SessionPtr session(new ShardlakeSession(opened),
                           [](ShardlakeSession* s) { s->deleteLater(); });
        session->moveToThread(guiThread);
        return session;
    }));
    QObject::connect(watcher, &QFutureWatcher<SessionPtr>::finished, &view,
                     [&view, watcher, placeholder] {
                         const SessionPtr session = watcher->result();
                         watcher->deleteLater();
                         view.centreTabs()->removeTab(view.centreTabs()->indexOf(placeholder));
                         placeholder->deleteLater();
                         // The views refer to the session: it lives as long as the view.
                         QObject::connect(&view, &QObject::destroyed, [session] {});
                         installSessionViews(view, session.get());
                     });
}

}  // namespace

static void installShardlakeViews(DocumentView& view) {
    if (view.document()->isRemote()) {
        installViewsWhenRead(view);
        return;
    }
    installSessionViews(view, new ShardlakeSession(view.document()->opened(), &view));
}

void registerShardlakeViews(FormatViews& views) {
    views.add(kShardlakeFormat, installShardlakeViews);
    views.setIcon(kShardlakeFormat, QStringLiteral(":/icons/application-x-shardlake-shard.svg"));
}

}  // namespace strata::gui
