// The offscreen platform with one 1366×768 screen, for the tests of what fits a small screen.
// Call before the QApplication is made (the platform reads its configuration then).
#pragma once

#include <QByteArray>
#include <QtGlobal>

#include <filesystem>
#include <fstream>
#include <string>

namespace strata::test {

inline void useSmallOffscreenScreen(const std::string& testName) {
    const std::filesystem::path config =
        std::filesystem::temp_directory_path() / ("strata-" + testName + "-screen.json");
    {
        std::ofstream out(config);
        out << R"({"screens": [{"name": "small", "x": 0, "y": 0, "width": 1366, "height": 768,)"
            << R"( "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})";
    }
    qputenv("QT_QPA_PLATFORM", QByteArray("offscreen:configfile=") + config.string().c_str());
}

}  // namespace strata::test
