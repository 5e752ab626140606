#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "model/core/byte_overlay.h"

using strata::model::ByteOverlay;

namespace {

QByteArray readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return {};
    }
    return f.readAll();
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QByteArray pattern(int size) {
    QByteArray bytes(size, Qt::Uninitialized);
    for (int i = 0; i < size; ++i) {
        bytes[i] = char(i * 7 + 3);
    }
    return bytes;
}

}  // namespace

class ByteOverlayTest : public QObject {
    Q_OBJECT
private slots:
    void readsOriginalBytesWithoutEdits() {
        ByteOverlay overlay(strata::makeBufferSource(std::string_view("abcdef")));
        QCOMPARE(overlay.read(0, 6), QByteArray("abcdef"));
        QCOMPARE(overlay.read(4, 100), QByteArray("ef"));
        QCOMPARE(overlay.read(10, 2), QByteArray());
        QVERIFY(!overlay.hasEdits());
    }

    void readsEditedBytes() {
        ByteOverlay overlay(strata::makeBufferSource(std::string_view("abcdef")));
        QSignalSpy changed(&overlay, &ByteOverlay::changed);
        overlay.write(2, "XY");
        QCOMPARE(overlay.read(0, 6), QByteArray("abXYef"));
        QCOMPARE(overlay.read(3, 2), QByteArray("Ye"));
        QVERIFY(overlay.isEdited(2));
        QVERIFY(!overlay.isEdited(4));
        QCOMPARE(overlay.editedByteCount(), std::size_t(2));
        QCOMPARE(overlay.byteAt(3), std::uint8_t('Y'));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).toULongLong(), 2ull);
        QCOMPARE(changed.at(0).at(1).toULongLong(), 2ull);
        // The source itself is untouched.
        std::uint8_t raw[6];
        overlay.source().read(0, raw);
        QCOMPARE(QByteArray(reinterpret_cast<const char*>(raw), 6), QByteArray("abcdef"));
    }

    void writeClipsAtTheEndAndRestoresOriginals() {
        ByteOverlay overlay(strata::makeBufferSource(std::string_view("abcdef")));
        overlay.write(4, "1234");
        QCOMPARE(overlay.read(0, 10), QByteArray("abcd12"));
        QCOMPARE(overlay.editedByteCount(), std::size_t(2));
        overlay.write(4, "e");  // back to the original: no longer an edit
        QCOMPARE(overlay.editedByteCount(), std::size_t(1));
        overlay.write(100, "zz");
        QCOMPARE(overlay.editedByteCount(), std::size_t(1));
        overlay.clear();
        QVERIFY(!overlay.hasEdits());
        QCOMPARE(overlay.read(0, 6), QByteArray("abcdef"));
    }

    void saveWritesExactlyTheEditedBytes() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString original = dir.filePath("original.bin");
        // Larger than one copy chunk, so edits on both sides of a chunk boundary are written.
        const QByteArray bytes = pattern(9 << 20);
        QVERIFY(writeFile(original, bytes));
        ByteOverlay overlay(strata::openMappedFile(original.toStdString()));
        overlay.write(0, "\x01\x02");
        overlay.write((4 << 20) - 1, "ZZ");
        overlay.write(bytes.size() - 1, "!");

        const QString target = dir.filePath("edited.bin");
        QCOMPARE(overlay.saveTo(target), QString());
        QByteArray expected = bytes;
        expected[0] = 1;
        expected[1] = 2;
        expected[(4 << 20) - 1] = 'Z';
        expected[4 << 20] = 'Z';
        expected[bytes.size() - 1] = '!';
        const QByteArray saved = readFile(target);
        QCOMPARE(saved.size(), expected.size());
        QVERIFY(saved == expected);
        QVERIFY(readFile(original) == bytes);
        // No temporary files stay behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 2);
    }

    void cancelledWriteLeavesTheTargetAlone() {
        QTemporaryDir dir;
        const QString target = dir.filePath("target.bin");
        QVERIFY(writeFile(target, "old contents"));
        auto source = strata::makeBufferSource(std::string_view("new contents"));
        strata::CancelToken cancel;
        cancel.cancel();
        QVERIFY(!ByteOverlay::writeEdited(*source, {}, target, &cancel).isEmpty());
        QCOMPARE(readFile(target), QByteArray("old contents"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"target.bin"});

        double last = 0;
        QCOMPARE(ByteOverlay::writeEdited(*source, {{0, 'N'}}, target, nullptr,
                                          [&](double f) { last = f; }),
                 QString());
        QCOMPARE(last, 1.0);
        QCOMPARE(readFile(target), QByteArray("New contents"));
    }

    void saveOverTheMappedFileItself() {
        QTemporaryDir dir;
        const QString path = dir.filePath("self.bin");
        QVERIFY(writeFile(path, "hello world"));
        ByteOverlay overlay(strata::openMappedFile(path.toStdString()));
        overlay.write(0, "J");
        QCOMPARE(overlay.saveTo(path), QString());
        QCOMPARE(readFile(path), QByteArray("Jello world"));
    }

    void failedSaveLeavesTargetsAlone() {
        QTemporaryDir dir;
        const QString source = dir.filePath("source.bin");
        QVERIFY(writeFile(source, "source bytes"));
        ByteOverlay overlay(strata::openMappedFile(source.toStdString()));
        overlay.write(0, "S");

        // A folder that does not exist.
        QVERIFY(!overlay.saveTo(dir.filePath("missing/out.bin")).isEmpty());
        // A target that is a directory: the rename fails and the directory survives.
        QVERIFY(QDir(dir.path()).mkdir("folder"));
        QVERIFY(writeFile(dir.filePath("folder/keep.txt"), "keep"));
        QVERIFY(!overlay.saveTo(dir.filePath("folder")).isEmpty());
        QCOMPARE(readFile(dir.filePath("folder/keep.txt")), QByteArray("keep"));
        QVERIFY(!overlay.saveTo(QString()).isEmpty());

        QCOMPARE(readFile(source), QByteArray("source bytes"));
        // Only the source file and the folder: no temporary file left behind.
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot),
                 QStringList({"folder", "source.bin"}));
    }
};

QTEST_GUILESS_MAIN(ByteOverlayTest)
#include "byte_overlay_test.moc"
