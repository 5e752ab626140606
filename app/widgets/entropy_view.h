// Entropy and byte-class graph of a file: entropy (0..8 bits per byte) as a filled area, the
// share of zero and of printable bytes as lines, the hex view's viewport marked. The profile
// is computed by the model's entropy job; this only paints it.
#pragma once

#include <QWidget>

#include "model/core/entropy_job.h"

namespace strata::gui {

class EntropyView : public QWidget {
    Q_OBJECT
public:
    explicit EntropyView(QWidget* parent = nullptr);

    void setProfile(const model::EntropyProfile& profile);
    void clear(const QString& message = {});
    bool hasProfile() const { return profile_.bucketCount() > 0; }
    const model::EntropyProfile& profile() const { return profile_; }
    void setViewport(quint64 firstOffset, quint64 length);
    // The file offset under x (widget coordinates).
    quint64 offsetAt(int x) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void offsetClicked(quint64 offset);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRectF plotRect() const;

    model::EntropyProfile profile_;
    QString message_;
    quint64 viewFirst_ = 0;
    quint64 viewLength_ = 0;
};

}  // namespace strata::gui
