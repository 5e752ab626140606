#include "zt_tensor_table_model.h"

#include <QFont>
#include <QLocale>

#include <set>

#include "formats/ztensor/zt_nodes.h"
#include "model/ztensor/zt_editor.h"

namespace strata::model {

namespace {

QString encodingName(ztensor::ZtEncoding encoding) {
    switch (encoding) {
        case ztensor::ZtEncoding::Raw:
            return QStringLiteral("raw");
        case ztensor::ZtEncoding::Zstd:
            return QStringLiteral("zstd");
        case ztensor::ZtEncoding::Unknown:
            break;
    }
    return QStringLiteral("?");
}

}  // namespace

ZtTensorTableModel::ZtTensorTableModel(std::shared_ptr<const ztensor::ZtFile> file,
                                       ZtEditor* editor, QObject* parent)
    : QAbstractTableModel(parent),
      file_(std::move(file)),
      editor_(editor),
      digests_(file_->tensors().size(), ZtDigestStatus::Unknown) {
    if (editor != nullptr) {
        connect(editor, &ZtEditor::planChanged, this, [this] {
            if (rowCount() > 0) {
                emit dataChanged(index(0, 0), index(rowCount() - 1, Count - 1));
            }
        });
    }
}

void ZtTensorTableModel::setDigestStatuses(const std::vector<ZtDigestStatus>& statuses) {
    digests_.assign(file_->tensors().size(), ZtDigestStatus::Unknown);
    if (statuses.size() == digests_.size()) {
        digests_ = statuses;
    }
    if (rowCount() > 0) {
        emit dataChanged(index(0, Digest), index(rowCount() - 1, Digest));
    }
}

ZtDigestStatus ZtTensorTableModel::digestStatus(int row) const {
    return row >= 0 && row < rowCount() ? digests_[static_cast<std::size_t>(row)]
                                        : ZtDigestStatus::Unknown;
}

QString ZtTensorTableModel::digestStatusText(ZtDigestStatus status) {
    switch (status) {
        case ZtDigestStatus::Unknown:
            return tr("unknown");
        case ZtDigestStatus::None:
            return tr("none");
        case ZtDigestStatus::Ok:
            return tr("ok");
        case ZtDigestStatus::Bad:
            return tr("bad");
    }
    return {};
}

std::vector<Region> ZtTensorTableModel::componentRegions(int row) const {
    std::vector<Region> out;
    if (row < 0 || row >= rowCount()) {
        return out;
    }
    for (std::size_t c : file_->tensors()[static_cast<std::size_t>(row)].components) {
        const ztensor::ZtComponent& component = file_->components()[c];
        if (component.hasRange()) {
            out.push_back(component.data.clipped());
        }
    }
    return out;
}

int ZtTensorTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(file_->tensors().size());
}

int ZtTensorTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : Count;
}

std::uint64_t ZtTensorTableModel::storedSize(int row) const {
    std::uint64_t total = 0;
    for (std::size_t c : file_->tensors()[static_cast<std::size_t>(row)].components) {
        total += file_->components()[c].length.value_or(0);
    }
    return total;
}

QString ZtTensorTableModel::encodingText(int row) const {
    const ztensor::ZtTensor& tensor = file_->tensors()[static_cast<std::size_t>(row)];
    std::set<QString> now;
    std::set<QString> planned;
    for (std::size_t c : tensor.components) {
        const ztensor::ZtComponent& component = file_->components()[c];
        now.insert(QString::fromStdString(component.encodingName));
        if (editor_) {
            planned.insert(encodingName(ztPlannedEncoding(
                component, editor_->plan().tensors[static_cast<std::size_t>(row)])));
        }
    }
    auto join = [](const std::set<QString>& names) {
        return QStringList(names.begin(), names.end()).join(QLatin1Char('+'));
    };
    QString text = join(now);
    if (editor_ && planned != now) {
        text += QStringLiteral(" → ") + join(planned);
    }
    return text;
}

QVariant ZtTensorTableModel::displayData(int row, int column) const {
    const ztensor::ZtTensor& tensor = file_->tensors()[static_cast<std::size_t>(row)];
    const QLocale locale = QLocale::c();
    switch (column) {
        case Name: {
            const QString name = QString::fromStdString(tensor.name);
            if (!editor_) {
                return name;
            }
            const ZtTensorEdit& edit = editor_->plan().tensors[static_cast<std::size_t>(row)];
            const QString planned = QString::fromStdString(edit.name);
            return planned == name ? name : planned + tr(" (was %1)").arg(name);
        }
        case Format:
            return QString::fromStdString(tensor.formatName);
        case DType:
            return QString::fromStdString(tensor.dtypeName);
        case Shape:
            return QString::fromStdString(ztensor::ztShapeText(tensor.shape));
        case Encoding:
            return encodingText(row);
        case Stored:
            return locale.toString(static_cast<qulonglong>(storedSize(row)));
        case Logical:
            return tensor.byteSize ? locale.toString(static_cast<qulonglong>(*tensor.byteSize))
                                   : tr("?");
        case Ratio: {
            const QVariant ratio = sortData(row, Ratio);
            return ratio.isValid() ? QString::number(ratio.toDouble(), 'f', 2) : QString();
        }
        case Digest:
            return digestStatusText(digests_[static_cast<std::size_t>(row)]);
        default:
            return {};
    }
}

QVariant ZtTensorTableModel::sortData(int row, int column) const {
    const ztensor::ZtTensor& tensor = file_->tensors()[static_cast<std::size_t>(row)];
    switch (column) {
        case Stored:
            return static_cast<qulonglong>(storedSize(row));
        case Logical:
            return tensor.byteSize ? QVariant(static_cast<qulonglong>(*tensor.byteSize))
                                   : QVariant();
        case Ratio: {
            // Logical over stored: how much the encoding saves (1.00 for raw).
            const std::uint64_t stored = storedSize(row);
            if (!tensor.byteSize || stored == 0) {
                return {};
            }
            return static_cast<double>(*tensor.byteSize) / static_cast<double>(stored);
        }
        case Shape:
            return static_cast<qulonglong>(tensor.elementCount.value_or(0));
        default:
            return displayData(row, column);
    }
}

QVariant ZtTensorTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const int row = index.row();
    switch (role) {
        case Qt::DisplayRole:
            return displayData(row, index.column());
        case SortRole:
            return sortData(row, index.column());
        case TensorRole:
            return row;
        case Qt::TextAlignmentRole:
            if (index.column() == Stored || index.column() == Logical || index.column() == Ratio) {
                return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
            }
            return {};
        case Qt::FontRole:
            if (editor_ && editor_->plan().tensors[static_cast<std::size_t>(row)].deleted) {
                QFont font;
                font.setStrikeOut(true);
                return font;
            }
            return {};
        case Qt::ToolTipRole:
            if (editor_ && editor_->plan().tensors[static_cast<std::size_t>(row)].deleted) {
                return tr("Deleted when the file is saved");
            }
            return {};
        default:
            return {};
    }
}

QVariant ZtTensorTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    static const char* const kTitles[] = {"Name",   "Format",  "DType", "Shape", "Encoding",
                                          "Stored", "Logical", "Ratio", "Digest"};
    return section >= 0 && section < Count ? tr(kTitles[section]) : QVariant();
}

}  // namespace strata::model
