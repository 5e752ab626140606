#include "open_url_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace strata::gui {

OpenUrlDialog::OpenUrlDialog(const QStringList& recent, const model::RemoteOpenSettings& settings,
                             QWidget* parent)
    : QDialog(parent),
      url_(new QComboBox(this)),
      profile_(new QLineEdit(settings.profile, this)),
      endpoint_(new QLineEdit(settings.endpoint, this)),
      anonymous_(new QCheckBox(tr("&Anonymous (public bucket, no credentials)"), this)),
      timeout_(new QSpinBox(this)),
      caFile_(new QLineEdit(settings.caFile, this)),
      hint_(new QLabel(this)),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this)) {
    setWindowTitle(tr("Open URL"));
    url_->setEditable(true);
    url_->setInsertPolicy(QComboBox::NoInsert);
    for (const QString& url : recent) {
        url_->addItem(model::shownUrl(url), url);  // the item's data is the URL to open
    }
    url_->setCurrentIndex(-1);
    url_->lineEdit()->setPlaceholderText(tr("https://host/path/file.zs or s3://bucket/key.zt"));
    url_->setMinimumContentsLength(48);
    profile_->setPlaceholderText(tr("AWS_PROFILE or default"));
    endpoint_->setPlaceholderText(tr("AWS, or e.g. http://127.0.0.1:9000"));
    anonymous_->setChecked(settings.anonymous);
    timeout_->setRange(0, 86400);
    timeout_->setSuffix(tr(" s"));
    timeout_->setSpecialValueText(tr("default (300 s)"));
    timeout_->setValue(settings.timeoutSeconds);
    timeout_->setToolTip(
        tr("Give up on opening, listing or one read (its retries included) "
           "after this long"));
    caFile_->setPlaceholderText(tr("CURL_CA_BUNDLE, SSL_CERT_FILE or the system's"));
    hint_->setWordWrap(true);
    hint_->setText(
        tr("The file opens read-only and Strata fetches only the bytes it shows. "
           "File > Save a Local Copy… downloads it."));

    auto* s3 = new QGroupBox(tr("S3 (s3:// URLs)"), this);
    auto* s3Form = new QFormLayout(s3);
    s3Form->addRow(tr("Credentials &profile:"), profile_);
    s3Form->addRow(tr("&Endpoint:"), endpoint_);
    s3Form->addRow(anonymous_);

    auto* connection = new QGroupBox(tr("Connection"), this);
    auto* connectionForm = new QFormLayout(connection);
    connectionForm->addRow(tr("&Time limit:"), timeout_);
    connectionForm->addRow(tr("&CA certificates:"), caFile_);

    auto* form = new QFormLayout;
    form->addRow(tr("&URL:"), url_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(s3);
    layout->addWidget(connection);
    layout->addWidget(hint_);
    layout->addWidget(buttons_);

    connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(url_, &QComboBox::editTextChanged, this, &OpenUrlDialog::updateState);
    connect(anonymous_, &QCheckBox::toggled, this, &OpenUrlDialog::updateState);
    updateState();
}

QString OpenUrlDialog::url() const {
    // A recent URL picked from the list is shown redacted: open what it stands for.
    const int index = url_->currentIndex();
    if (index >= 0 && url_->currentText() == url_->itemText(index)) {
        return url_->itemData(index).toString();
    }
    return url_->currentText().trimmed();
}

model::RemoteOpenSettings OpenUrlDialog::settings() const {
    model::RemoteOpenSettings out;
    out.profile = profile_->text().trimmed();
    out.endpoint = endpoint_->text().trimmed();
    out.anonymous = anonymous_->isChecked();
    out.timeoutSeconds = timeout_->value();
    out.caFile = caFile_->text().trimmed();
    return out;
}

void OpenUrlDialog::updateState() {
    buttons_->button(QDialogButtonBox::Open)->setEnabled(model::isRemoteUrl(url()));
    // A profile means nothing to an anonymous request.
    profile_->setEnabled(!anonymous_->isChecked());
}

}  // namespace strata::gui
