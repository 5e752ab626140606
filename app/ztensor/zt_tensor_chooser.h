// The "Tensor" label and drop-down shared by the Values and Statistics tabs.
#pragma once

class QComboBox;
class QHBoxLayout;
class QWidget;

namespace strata::ztensor {
class ZtFile;
}

namespace strata::gui {

// Adds a label and a combo box listing every tensor of `file`, in manifest order, to `row`;
// returns the combo box (owned by `parent`).
QComboBox* addZtTensorChooser(QHBoxLayout& row, const ztensor::ZtFile& file, QWidget* parent);

}  // namespace strata::gui
