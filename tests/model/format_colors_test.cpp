#include <QSet>
#include <QTest>

#include "model/core/format_colors.h"

class FormatColorsTest : public QObject {
    Q_OBJECT
private slots:
    void kindColoursAreStableAndDistinct() {
        const QColor header = strata::model::colorForKind("zs.header");
        QVERIFY(header.isValid());
        QCOMPARE(strata::model::colorForKind("zs.header"), header);
        // Light backgrounds by default, dark ones on request.
        QVERIFY(header.lightness() > 150);
        QVERIFY(strata::model::colorForKind("zs.header", true).lightness() < 110);

        const char* kinds[] = {"zs.header",    "zs.data_block",     "zs.index_block",
                               "zs.record",    "ztensor.component", "ztensor.manifest",
                               "zds.document", "ozdf.part",         "shardlake.shard",
                               "raw.file"};
        QSet<QRgb> distinct;
        for (const char* kind : kinds) {
            distinct.insert(strata::model::colorForKind(kind).rgb());
        }
        QVERIFY(distinct.size() >= 7);
        QVERIFY(strata::model::colorForKind("").isValid());
    }

    void levelsShadeTheKindColour() {
        strata::Node data("zs.index_block", "plain");
        strata::Node level1("zs.index_block", "level 1");
        level1.addField("level", std::uint64_t{1});
        strata::Node level2("zs.index_block", "level 2");
        level2.addField("level", std::uint64_t{2});
        strata::Node level0("zs.index_block", "level 0");
        level0.addField("level", std::uint64_t{0});
        const QColor kind = strata::model::colorForKind("zs.index_block");
        QCOMPARE(strata::model::colorForNode(data), kind);
        QCOMPARE(strata::model::colorForNode(level0), kind);
        QVERIFY(strata::model::colorForNode(level1) != kind);
        QVERIFY(strata::model::colorForNode(level1) != strata::model::colorForNode(level2));
        QCOMPARE(strata::model::colorForNode(level1).lightness(), kind.lightness());
    }

    void statusAndSeverityColours() {
        QVERIFY(!strata::model::colorForStatus(strata::Status::Ok).isValid());
        QVERIFY(strata::model::colorForStatus(strata::Status::Error).isValid());
        QCOMPARE(strata::model::colorForSeverity(strata::Severity::Error),
                 strata::model::colorForStatus(strata::Status::Error));
        QVERIFY(strata::model::colorForSeverity(strata::Severity::Warning) !=
                strata::model::colorForSeverity(strata::Severity::Error));
        QCOMPARE(strata::model::textColorOn(QColor(Qt::white)), QColor(Qt::black));
        QCOMPARE(strata::model::textColorOn(QColor(Qt::black)), QColor(Qt::white));
    }
};

QTEST_GUILESS_MAIN(FormatColorsTest)
#include "format_colors_test.moc"
