// The file map: one vertical strip for the whole file, coloured by node kind with diagnostics on
// top and the hex view's viewport marked. Click to jump; hover for what is there.
#pragma once

#include <QImage>
#include <QList>
#include <QWidget>

#include "map_segments.h"

namespace strata::gui {

class FileMap : public QWidget {
    Q_OBJECT
public:
    explicit FileMap(QWidget* parent = nullptr);

    // The file shown; `fileNode` (may be null) is where deepestAt starts for tooltips.
    void setFile(quint64 size, const strata::Node* fileNode, const strata::ByteSource* source);
    void setSegments(QList<MapSegment> segments);
    void setMarkers(QList<MapMarker> markers);
    const QList<MapMarker>& markers() const { return markers_; }
    void setViewport(quint64 firstOffset, quint64 length);

    // Offsets and strip positions, both ways (y in widget coordinates).
    quint64 offsetAt(int y) const;
    int yFor(quint64 offset) const;
    // What the tooltip at `offset` says.
    QString describe(quint64 offset) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void offsetClicked(quint64 offset);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRect stripRect() const;
    void renderCache();

    quint64 size_ = 0;
    const strata::Node* fileNode_ = nullptr;
    const strata::ByteSource* source_ = nullptr;
    QList<MapSegment> segments_;
    QList<MapMarker> markers_;
    quint64 viewFirst_ = 0;
    quint64 viewLength_ = 0;
    QImage cache_;
    bool cacheValid_ = false;
};

}  // namespace strata::gui
