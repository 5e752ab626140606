#include "node.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace strata {

std::string_view statusName(Status status) {
    switch (status) {
        case Status::Ok:
            return "ok";
        case Status::Info:
            return "info";
        case Status::Warning:
            return "warning";
        case Status::Error:
            return "error";
    }
    return "ok";
}

Status worse(Status a, Status b) {
    return a < b ? b : a;
}

std::string formatFieldValue(const FieldValue& value) {
    struct Formatter {
        std::string operator()(std::monostate) const { return {}; }
        std::string operator()(bool b) const { return b ? "true" : "false"; }
        std::string operator()(std::int64_t v) const { return std::to_string(v); }
        std::string operator()(std::uint64_t v) const { return std::to_string(v); }
        std::string operator()(double v) const {
            char buffer[32];
            std::snprintf(buffer, sizeof buffer, "%.9g", v);
            return buffer;
        }
        std::string operator()(const std::string& s) const { return s; }
    };
    return std::visit(Formatter{}, value);
}

std::string Field::text() const {
    return display.empty() ? formatFieldValue(value) : display;
}

Node::Node(std::string kind, std::string label, Region region)
    : kind_(std::move(kind)), label_(std::move(label)), region_(region) {}

Node::~Node() = default;

Field& Node::addField(std::string name, FieldValue value, Region region, std::string display) {
    fields_.push_back({std::move(name), std::move(value), region, std::move(display), Status::Ok});
    return fields_.back();
}

std::string Node::path() const {
    std::vector<const Node*> chain;
    for (const Node* n = this; n != nullptr; n = n->parent_) {
        chain.push_back(n);
    }
    std::string out;
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        if (!out.empty()) {
            out += '/';
        }
        out += (*it)->label_;
    }
    return out;
}

bool Node::hasChildren() const {
    return !eagerChildren_.empty() || hasLazyChildren();
}

std::uint64_t Node::childCount() const {
    if (!eagerChildren_.empty() || !hasLazyChildren()) {
        return eagerChildren_.size();
    }
    std::lock_guard lock(lazyMutex_);
    if (!lazyCount_) {
        lazyCount_ = lazyChildCount();
    }
    return *lazyCount_;
}

Node* Node::child(std::uint64_t index) const {
    if (!eagerChildren_.empty()) {
        return index < eagerChildren_.size() ? eagerChildren_[index].get() : nullptr;
    }
    if (index >= childCount()) {
        return nullptr;
    }
    std::lock_guard lock(lazyMutex_);
    auto& slot = lazyChildren_[index];
    if (!slot) {
        slot = makeChild(index);
        if (!slot) {
            slot = std::make_unique<Node>("error", "<missing child>");
            slot->setStatus(Status::Error);
        }
        slot->parent_ = const_cast<Node*>(this);
        slot->row_ = index;
    }
    return slot.get();
}

bool Node::childrenBuilt(std::uint64_t upTo) const {
    if (!eagerChildren_.empty() || !hasLazyChildren()) {
        return true;
    }
    std::lock_guard lock(lazyMutex_);
    if (!lazyCount_) {
        return false;
    }
    for (std::uint64_t i = 0, n = std::min(*lazyCount_, upTo); i < n; ++i) {
        const auto it = lazyChildren_.find(i);
        if (it == lazyChildren_.end() || !it->second) {
            return false;
        }
    }
    return true;
}

Node* Node::appendChild(std::unique_ptr<Node> child) {
    child->parent_ = this;
    child->row_ = eagerChildren_.size();
    eagerChildren_.push_back(std::move(child));
    return eagerChildren_.back().get();
}

std::unique_ptr<Node> Node::makeChild(std::uint64_t) const {
    return nullptr;
}

bool Node::covers(std::uint64_t offset, const ByteSource* source) const {
    return region_.source == source && region_.contains(offset);
}

std::optional<std::uint64_t> Node::childIndexAt(std::uint64_t offset,
                                                const ByteSource* source) const {
    const std::uint64_t count = childCount();
    constexpr std::uint64_t kLinearLimit = 64;
    if (count <= kLinearLimit || !childrenSortedByOffset()) {
        // Small or unordered: the first child that covers the offset wins (children whose
        // regions overlap resolve to the earliest one). Unordered nodes with many children
        // should override childIndexAt: this scan is linear.
        for (std::uint64_t i = 0; i < count; ++i) {
            if (child(i)->covers(offset, source)) {
                return i;
            }
        }
        return std::nullopt;
    }
    // Sorted: find the last child starting at or before offset, then check it covers it.
    std::uint64_t lo = 0;
    std::uint64_t hi = count;
    while (lo < hi) {
        const std::uint64_t mid = lo + (hi - lo) / 2;
        const Region& r = child(mid)->region();
        if (r.source == source && r.offset <= offset) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo == 0) {
        return std::nullopt;
    }
    const std::uint64_t candidate = lo - 1;
    if (child(candidate)->covers(offset, source)) {
        return candidate;
    }
    return std::nullopt;
}

const Node* Node::deepestAt(std::uint64_t offset, const ByteSource* source) const {
    if (!region_.valid()) {
        // A grouping node with no bytes of its own (a folder of files): the answer lies in
        // whichever child covers the offset in that source.
        if (source == nullptr) {
            return nullptr;
        }
        for (std::uint64_t i = 0, count = childCount(); i < count; ++i) {
            if (!childMayCover(i, source)) {
                continue;
            }
            if (const Node* hit = child(i)->deepestAt(offset, source)) {
                return hit;
            }
        }
        return nullptr;
    }
    if (source == nullptr) {
        source = region_.source;
    }
    if (!covers(offset, source)) {
        return nullptr;
    }
    const Node* node = this;
    while (node->hasChildren()) {
        const auto index = node->childIndexAt(offset, source);
        if (!index) {
            break;
        }
        node = node->child(*index);
    }
    return node;
}

const Node* Node::exactlyAt(const Region& region) const {
    const auto same = [&region](const Node& node) {
        const Region& r = node.region();
        return r.source == region.source && r.offset == region.offset && r.length == region.length;
    };
    const Node* deepest = deepestAt(region.offset, region.source);
    for (const Node* node = deepest; node != nullptr; node = node->parent()) {
        if (same(*node)) {
            return node;
        }
        const Node* parent = node->parent();
        if (parent == nullptr || node == this) {
            break;
        }
        // Siblings starting at the same offset lie next to it when children are in offset
        // order: look both ways while they do.
        const std::uint64_t count = parent->childCount();
        for (std::uint64_t i = node->row(); i-- > 0;) {
            const Node* sibling = parent->child(i);
            if (sibling->region().offset != region.offset) {
                break;
            }
            if (same(*sibling)) {
                return sibling;
            }
        }
        for (std::uint64_t i = node->row() + 1; i < count; ++i) {
            const Node* sibling = parent->child(i);
            if (sibling->region().offset != region.offset) {
                break;
            }
            if (same(*sibling)) {
                return sibling;
            }
        }
    }
    return nullptr;
}

}  // namespace strata
