// File > Open URL…: an http://, https:// or s3:// address (recent ones offered, their tokens
// shown as ***), for s3:// the credentials profile, the endpoint of an S3-compatible store and
// anonymous access, and for any URL the time limit of one operation and the CA certificates
// HTTPS servers are checked against.
#pragma once

#include <QDialog>

#include "model/core/remote_access.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace strata::gui {

class OpenUrlDialog : public QDialog {
    Q_OBJECT
public:
    // Starts with `recent` in the URL list and `settings` in the S3 fields.
    OpenUrlDialog(const QStringList& recent, const model::RemoteOpenSettings& settings,
                  QWidget* parent = nullptr);

    QString url() const;
    model::RemoteOpenSettings settings() const;

    QComboBox* urlBox() const { return url_; }

private:
    void updateState();

    QComboBox* url_;
    QLineEdit* profile_;
    QLineEdit* endpoint_;
    QCheckBox* anonymous_;
    QSpinBox* timeout_;
    QLineEdit* caFile_;
    QLabel* hint_;
    QDialogButtonBox* buttons_;
};

}  // namespace strata::gui
