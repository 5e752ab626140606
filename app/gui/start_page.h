// What an empty main window shows: the ways in (Open File, Open Folder, Open URL, Open Folder or
// Bucket), the recent files and URLs with their format's icon (Remove from List in their
// context menu), the bundled samples, and that files and URLs may be dropped anywhere.
#pragma once

#include <QStringList>
#include <QWidget>

class QListWidget;
class QListWidgetItem;

namespace strata {
class FormatRegistry;
}

namespace strata::gui {

class BrowserController;
class FormatViews;
class OpenController;

class StartPage : public QWidget {
    Q_OBJECT
public:
    // `views` and `formats` give the icons of recent files and samples, and the formats named.
    StartPage(OpenController& opener, BrowserController& browser, const FormatViews& views,
              const FormatRegistry& formats, QWidget* parent = nullptr);

    QListWidget* recentList() const { return recent_; }
    QListWidget* sampleList() const { return samples_; }
    // The bundled sample files found beside the installed program or in the source tree.
    static QStringList sampleFiles();

private:
    void fillRecent();
    void open(QListWidgetItem* item);
    void showRecentMenu(const QPoint& at);

    OpenController& opener_;
    const FormatViews& views_;
    const FormatRegistry& formats_;
    QListWidget* recent_;
    QListWidget* samples_;
};

}  // namespace strata::gui
