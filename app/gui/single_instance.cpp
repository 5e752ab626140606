#include "single_instance.h"

#include <QCryptographicHash>
#include <QDataStream>
#include <QDir>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <QPointer>

#include "model/core/remote_access.h"

namespace strata::gui {
namespace {

// Wire format: a QDataStream with a magic word and a QStringList.
constexpr quint32 kMagic = 0x53545241;  // "STRA"

QString userName() {
    QString name = qEnvironmentVariable("USER");
    if (name.isEmpty()) {
        name = qEnvironmentVariable("USERNAME");
    }
    if (name.isEmpty()) {
        name = QDir::homePath();
    }
    return name;
}

}  // namespace

QString SingleInstance::defaultServerName() {
    // Hashed so odd characters in a user name cannot make an invalid socket name.
    const QByteArray hash =
        QCryptographicHash::hash(userName().toUtf8(), QCryptographicHash::Sha256).toHex();
    return QStringLiteral("strata-") + QString::fromLatin1(hash.left(16));
}

SingleInstance::SingleInstance(QString serverName, QObject* parent)
    : QObject(parent), serverName_(std::move(serverName)) {}

SingleInstance::~SingleInstance() = default;

bool SingleInstance::sendToRunning(const QStringList& paths, int timeoutMs) const {
    QLocalSocket socket;
    socket.connectToServer(serverName_);
    if (!socket.waitForConnected(timeoutMs)) {
        return false;
    }
    QStringList absolute;
    for (const QString& path : paths) {
        // URLs go over as written: the running window fetches them itself.
        absolute << (model::isRemoteUrl(path) ? path : QFileInfo(path).absoluteFilePath());
    }
    QByteArray payload;
    QDataStream out(&payload, QIODevice::WriteOnly);
    out << kMagic << absolute;
    QDataStream framed(&socket);
    framed << payload;
    if (!socket.waitForBytesWritten(timeoutMs)) {
        return false;
    }
    // Wait for the running instance's one-byte acknowledgement, so the paths are not lost if
    // it was shutting down.
    if (!socket.waitForReadyRead(timeoutMs)) {
        return false;
    }
    socket.disconnectFromServer();
    return true;
}

bool SingleInstance::listen() {
    if (server_ != nullptr && server_->isListening()) {
        return true;
    }
    // A listening instance answers; only then is this one secondary.
    QLocalSocket probe;
    probe.connectToServer(serverName_);
    if (probe.waitForConnected(500)) {
        probe.disconnectFromServer();
        return false;
    }
    QLocalServer::removeServer(serverName_);  // a stale socket file from a crash
    server_ = new QLocalServer(this);
    server_->setSocketOptions(QLocalServer::UserAccessOption);
    if (!server_->listen(serverName_)) {
        delete server_;
        server_ = nullptr;
        return false;
    }
    connect(server_, &QLocalServer::newConnection, this, &SingleInstance::acceptConnection);
    return true;
}

bool SingleInstance::isListening() const {
    return server_ != nullptr && server_->isListening();
}

void SingleInstance::acceptConnection() {
    while (QLocalSocket* socket = server_->nextPendingConnection()) {
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        QPointer<QLocalSocket> guard(socket);
        connect(socket, &QLocalSocket::readyRead, this, [this, guard] {
            if (!guard) {
                return;
            }
            QDataStream in(guard.data());
            in.startTransaction();
            QByteArray payload;
            in >> payload;
            if (!in.commitTransaction()) {
                return;  // wait for the rest
            }
            QDataStream message(payload);
            quint32 magic = 0;
            QStringList paths;
            message >> magic >> paths;
            guard->write("k");
            guard->flush();
            if (magic == kMagic && message.status() == QDataStream::Ok) {
                emit pathsReceived(paths);
            }
        });
    }
}

}  // namespace strata::gui
