// The structural description every format produces. A Node names a piece of a file (its kind,
// a label, the bytes it came from, typed fields with their own byte ranges) and enumerates its
// children lazily, so a tree over ten million records costs only what is looked at.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "region.h"

namespace strata {

enum class Status : std::uint8_t { Ok, Info, Warning, Error };

std::string_view statusName(Status status);
Status worse(Status a, Status b);

using FieldValue =
    std::variant<std::monostate, bool, std::int64_t, std::uint64_t, double, std::string>;

struct Field {
    std::string name;
    FieldValue value;
    Region region;
    // Preformatted text for the value column ("0x1A (lzma)"); empty means format `value`.
    std::string display;
    Status status = Status::Ok;

    std::string text() const;
};

std::string formatFieldValue(const FieldValue& value);

class Node {
public:
    Node(std::string kind, std::string label, Region region = {});
    virtual ~Node();
    Node(const Node&) = delete;
    Node& operator=(const Node&) = delete;

    // Stable identifier of what this node is ("zs.header", "ztensor.component"), used for
    // colours in the hex view and file map and by tests.
    const std::string& kind() const { return kind_; }
    const std::string& label() const { return label_; }
    const Region& region() const { return region_; }
    // One-line summary for the tree's value column.
    const std::string& value() const { return value_; }
    Status status() const { return status_; }
    const std::vector<Field>& fields() const { return fields_; }

    void setLabel(std::string label) { label_ = std::move(label); }
    void setValue(std::string value) { value_ = std::move(value); }
    void setStatus(Status status) { status_ = status; }
    Field& addField(std::string name, FieldValue value, Region region = {},
                    std::string display = {});

    Node* parent() const { return parent_; }
    std::uint64_t row() const { return row_; }
    // Labels from the root down to this node, joined with '/'.
    std::string path() const;

    // Children. For eager nodes these are what appendChild added; lazy nodes override
    // lazyChildCount/makeChild and build each child on first access.
    bool hasChildren() const;
    std::uint64_t childCount() const;
    Node* child(std::uint64_t index) const;
    Node* appendChild(std::unique_ptr<Node> child);
    // Whether childCount() and child(i) for every i < min(count, upTo) would return without
    // building anything (which, for a lazy node of a remote file, may wait for a server).
    bool childrenBuilt(std::uint64_t upTo) const;

    // The deepest node under this one whose region (in `source`, or in this node's own source
    // when null) covers `offset`; this node when no child does; nullptr when not even this one
    // does. Visits O(depth · log children) nodes when children are sorted by offset. A node
    // without a region (a folder) asks its children in turn.
    const Node* deepestAt(std::uint64_t offset, const ByteSource* source = nullptr) const;
    // The node whose region is exactly `region` (same source, offset and length), looked for
    // on the way down to deepestAt(region.offset) and among the siblings there that start at
    // the same offset: an empty tensor shares its offset with the next one, and must not be
    // taken for it. nullptr when no node has that region.
    const Node* exactlyAt(const Region& region) const;

protected:
    // Lazy enumeration. hasLazyChildren() must be cheap (it decides whether the tree shows an
    // expander); lazyChildCount() may do real work such as decoding a block and is called once.
    virtual bool hasLazyChildren() const { return false; }
    virtual std::uint64_t lazyChildCount() const { return 0; }
    virtual std::unique_ptr<Node> makeChild(std::uint64_t index) const;
    // True when children are in ascending, non-overlapping offset order within one source, so
    // deepestAt can binary-search. Nodes with many unordered children should override
    // childIndexAt instead.
    virtual bool childrenSortedByOffset() const { return true; }
    // False when child `index` cannot cover bytes of `source` (a file other than its own):
    // deepestAt then skips it instead of building it. Nodes without a region of their own
    // with many lazily built children (a folder of 10,000 files) override it.
    virtual bool childMayCover(std::uint64_t /*index*/, const ByteSource* /*source*/) const {
        return true;
    }
    virtual std::optional<std::uint64_t> childIndexAt(std::uint64_t offset,
                                                      const ByteSource* source) const;

private:
    bool covers(std::uint64_t offset, const ByteSource* source) const;

    std::string kind_;
    std::string label_;
    Region region_;
    std::string value_;
    Status status_ = Status::Ok;
    std::vector<Field> fields_;

    Node* parent_ = nullptr;
    std::uint64_t row_ = 0;

    std::vector<std::unique_ptr<Node>> eagerChildren_;
    mutable std::mutex lazyMutex_;
    mutable std::optional<std::uint64_t> lazyCount_;
    mutable std::unordered_map<std::uint64_t, std::unique_ptr<Node>> lazyChildren_;
};

}  // namespace strata
