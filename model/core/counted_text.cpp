#include "model/core/counted_text.h"

#include "formats/common/counted.h"

namespace strata::model {

QString countedText(std::uint64_t count, const QString& singular, const QString& plural) {
    return QString::fromStdString(
        strata::counted(count, singular.toStdString(), plural.toStdString()));
}

QString nounText(std::uint64_t count, const QString& singular, const QString& plural) {
    return QString::fromStdString(
        strata::nounFor(count, singular.toStdString(), plural.toStdString()));
}

}  // namespace strata::model
