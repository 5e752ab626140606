// One running Strata per user: a second `strata FILE` hands its paths to the running window
// over a local socket and exits. The server name is injectable so tests can run two at once.
#pragma once

#include <QObject>
#include <QStringList>

class QLocalServer;

namespace strata::gui {

class SingleInstance : public QObject {
    Q_OBJECT
public:
    // "strata-<user>", so users on one machine do not open files in each other's windows.
    static QString defaultServerName();

    explicit SingleInstance(QString serverName = defaultServerName(), QObject* parent = nullptr);
    ~SingleInstance() override;

    QString serverName() const { return serverName_; }

    // Sends `paths` (made absolute; URLs as they are) to a running instance; true when one
    // received them.
    bool sendToRunning(const QStringList& paths, int timeoutMs = 2000) const;
    // Starts listening as the primary instance (clearing a stale socket left by a crash);
    // false when another instance already listens.
    bool listen();
    bool isListening() const;

signals:
    // Paths another invocation asked this instance to open (possibly empty: just raise).
    void pathsReceived(const QStringList& paths);

private:
    void acceptConnection();

    QString serverName_;
    QLocalServer* server_ = nullptr;
};

}  // namespace strata::gui
