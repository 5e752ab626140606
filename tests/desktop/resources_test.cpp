// Checks that the icons compiled in through strata_resources are present and render.
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <QTest>

class ResourcesTest : public QObject {
    Q_OBJECT

private slots:
    void appIdMatchesIconPath() {
        QCOMPARE(QStringLiteral(STRATA_APP_ICON),
                 QStringLiteral(":/icons/") + QStringLiteral(STRATA_APP_ID) + ".svg");
    }

    void iconsRender_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("minimumCoverage");  // of 48×48 pixels, in percent
        for (const char* name :
             {"application-x-zs", "application-x-ztensor", "application-x-shardlake-shard",
              "application-x-zds", "text-x-ozdf", "text-x-ozdf-part"}) {
            QTest::newRow(name) << QStringLiteral(":/icons/%1.svg").arg(QLatin1String(name)) << 25;
        }
        QTest::newRow("app") << QStringLiteral(STRATA_APP_ICON) << 25;
        // The toolbar's, under their freedesktop names: line drawings, thinner.
        for (const char* name :
             {"document-open", "folder-remote", "document-save", "dialog-ok-apply",
              "view-split-left-right", "tools-wizard", "edit-find", "go-previous", "go-next"}) {
            QTest::newRow(name) << QStringLiteral(":/icons/actions/%1.svg").arg(QLatin1String(name))
                                << 5;
        }
    }

    void iconsRender() {
        QFETCH(QString, path);
        QFETCH(int, minimumCoverage);
        QVERIFY2(QFile::exists(path), qPrintable(path));
        QSvgRenderer renderer(path);
        QVERIFY(renderer.isValid());
        QImage image(48, 48, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        renderer.render(&painter);
        painter.end();
        int opaque = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                opaque += qAlpha(image.pixel(x, y)) > 0 ? 1 : 0;
            }
        }
        QVERIFY2(opaque * 100 > 48 * 48 * minimumCoverage, "icon draws almost nothing");
    }
};

QTEST_MAIN(ResourcesTest)
#include "resources_test.moc"
