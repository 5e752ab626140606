// The data inspector: what the bytes at the hex cursor mean as integers, floats, LEB128, text
// and timestamps. The decoding lives in data_decoders.h; this is only the table.
#pragma once

#include <QPointer>
#include <QWidget>

class QTableWidget;
class QTimer;

namespace strata::model {
class ByteOverlay;
}

namespace strata::gui {

class DataInspector : public QWidget {
    Q_OBJECT
public:
    // Enough for every interpretation: a 10-byte uleb128, a short UTF-8 string.
    static constexpr int kBytesRead = 96;

    explicit DataInspector(QWidget* parent = nullptr);

    void setOverlay(model::ByteOverlay* overlay);
    quint64 offset() const { return offset_; }
    // Row text by type name ("u32 LE"), for tests; empty when absent.
    QString valueOf(const QString& name) const;

public slots:
    void setOffset(quint64 offset);
    void refresh();

signals:
    // The user picked a row: select the bytes that interpretation covers.
    void selectBytesRequested(quint64 offset, quint64 length);

private:
    QPointer<model::ByteOverlay> overlay_;
    quint64 offset_ = 0;
    QTableWidget* table_;
    QTimer* pendingRefresh_ = nullptr;  // runs while the bytes at the offset are being fetched
};

}  // namespace strata::gui
