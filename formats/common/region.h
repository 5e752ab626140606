// A Region names the bytes a structure came from: which source, where, how many.
#pragma once

#include <cstdint>

#include "bounds.h"
#include "byte_source.h"

namespace strata {

struct Region {
    // Not owning: the document (or the format's opened-file object) keeps its sources alive for
    // as long as any node or diagnostic that points into them.
    const ByteSource* source = nullptr;
    std::uint64_t offset = 0;
    std::uint64_t length = 0;

    std::uint64_t end() const { return saturatingEnd(offset, length); }
    bool valid() const { return source != nullptr; }
    bool contains(std::uint64_t at) const { return at >= offset && at < end(); }
    bool contains(const Region& other) const {
        return other.source == source && other.offset >= offset && other.end() <= end();
    }
    // The part of this region that lies inside its source.
    Region clipped() const {
        if (source == nullptr) {
            return *this;
        }
        return {source, offset, clippedLength(offset, length, source->size())};
    }
    bool operator==(const Region&) const = default;
};

}  // namespace strata
