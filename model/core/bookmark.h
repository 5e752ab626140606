// A named byte range the user marked in a document.
#pragma once

#include <QString>

#include "formats/common/byte_source.h"

namespace strata::model {

struct Bookmark {
    const ByteSource* source = nullptr;
    quint64 offset = 0;
    quint64 length = 1;
    QString name;

    bool operator==(const Bookmark&) const = default;
};

}  // namespace strata::model
