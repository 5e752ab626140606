#include "zt_tensor_chooser.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>

#include "formats/ztensor/zt_file.h"

namespace strata::gui {

QComboBox* addZtTensorChooser(QHBoxLayout& row, const ztensor::ZtFile& file, QWidget* parent) {
    auto* box = new QComboBox(parent);
    for (const ztensor::ZtTensor& tensor : file.tensors()) {
        box->addItem(QString::fromStdString(tensor.name));
    }
    box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    row.addWidget(new QLabel(QCoreApplication::translate("ZtTensorChooser", "Tensor"), parent));
    row.addWidget(box);
    return box;
}

}  // namespace strata::gui
