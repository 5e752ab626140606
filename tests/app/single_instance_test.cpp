// Single-instance hand-over: a second instance sends its paths to the first and gets an answer.
#include <QDir>
#include <QSignalSpy>
#include <QTest>
#include <QUuid>
#include <QtConcurrent>

#include "app/gui/single_instance.h"

using strata::gui::SingleInstance;

class SingleInstanceTest : public QObject {
    Q_OBJECT
private slots:
    void defaultNameIsPerUser() {
        const QString name = SingleInstance::defaultServerName();
        QVERIFY(name.startsWith(QStringLiteral("strata-")));
        QCOMPARE(name, SingleInstance::defaultServerName());
    }

    void secondInstanceHandsOverPaths() {
        const QString server = QStringLiteral("strata-test-") +
                               QUuid::createUuid().toString(QUuid::WithoutBraces).left(8);
        SingleInstance first(server);
        SingleInstance second(server);
        // Nobody listens yet: nothing is sent.
        QVERIFY(!second.sendToRunning({QStringLiteral("a.zs")}, 300));
        QVERIFY(first.listen());
        QVERIFY(first.isListening());
        // A second listener on the same name refuses: one instance is already running.
        QVERIFY(!second.listen());

        QSignalSpy received(&first, &SingleInstance::pathsReceived);
        // The sender blocks while it waits for the answer, so it runs on another thread and
        // this one keeps the event loop going for the server.
        QFuture<bool> sent = QtConcurrent::run([&second] {
            return second.sendToRunning(
                {QStringLiteral("relative/file.zs"), QStringLiteral("/abs/other.zds")});
        });
        QTRY_COMPARE(received.count(), 1);
        QTRY_VERIFY(sent.isFinished());
        QVERIFY(sent.result());
        const QStringList paths = received.first().first().toStringList();
        QCOMPARE(paths.size(), 2);
        QCOMPARE(paths[0], QDir::current().absoluteFilePath(QStringLiteral("relative/file.zs")));
        QCOMPARE(paths[1], QStringLiteral("/abs/other.zds"));
    }

    void emptyHandOverJustRaises() {
        const QString server = QStringLiteral("strata-test-") +
                               QUuid::createUuid().toString(QUuid::WithoutBraces).left(8);
        SingleInstance first(server);
        QVERIFY(first.listen());
        QSignalSpy received(&first, &SingleInstance::pathsReceived);
        SingleInstance second(server);
        QFuture<bool> sent = QtConcurrent::run([&second] { return second.sendToRunning({}); });
        QTRY_COMPARE(received.count(), 1);
        QTRY_VERIFY(sent.isFinished());
        QVERIFY(sent.result());
        QVERIFY(received.first().first().toStringList().isEmpty());
    }
};

QTEST_MAIN(SingleInstanceTest)
#include "single_instance_test.moc"
