#include "zt_cbor_scan.h"

#include <optional>

#include "../common/le_reader.h"

namespace strata::ztensor {

std::string cborPath(std::initializer_list<std::string_view> segments) {
    std::string out;
    bool first = true;
    for (auto segment : segments) {
        if (!first) {
            out += kCborPathSeparator;
        }
        out += segment;
        first = false;
    }
    return out;
}

std::string cborPathText(std::string_view path) {
    std::string out(path);
    for (char& c : out) {
        if (c == kCborPathSeparator) {
            c = '/';
        }
    }
    return out;
}

namespace {

enum class FrameType { Array, Map, IndefString };

// RFC 3629 UTF-8: no overlong forms, no surrogates, nothing past U+10FFFF.
bool validUtf8(const std::uint8_t* p, std::uint64_t n) {
    std::uint64_t i = 0;
    while (i < n) {
        const std::uint8_t b = p[i];
        if (b < 0x80) {
            ++i;
            continue;
        }
        std::uint64_t extra = 0;
        std::uint8_t low = 0x80;
        std::uint8_t high = 0xBF;
        if (b >= 0xC2 && b <= 0xDF) {
            extra = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            extra = 2;
            low = b == 0xE0 ? 0xA0 : 0x80;
            high = b == 0xED ? 0x9F : 0xBF;
        } else if (b >= 0xF0 && b <= 0xF4) {
            extra = 3;
            low = b == 0xF0 ? 0x90 : 0x80;
            high = b == 0xF4 ? 0x8F : 0xBF;
        } else {
            return false;
        }
        if (n - i <= extra || p[i + 1] < low || p[i + 1] > high) {
            return false;
        }
        for (std::uint64_t k = 2; k <= extra; ++k) {
            if (p[i + k] < 0x80 || p[i + k] > 0xBF) {
                return false;
            }
        }
        i += extra + 1;
    }
    return true;
}

struct Frame {
    FrameType type = FrameType::Array;
    bool indefinite = false;
    // Items still to come in a definite container (a map counts keys and values).
    std::uint64_t remaining = 0;
    std::uint8_t stringMajor = 0;
    std::uint64_t start = 0;
    bool record = false;
    bool isRoot = false;
    std::string path;
    // Map state: the key of the entry being read.
    bool expectKey = true;
    bool keyIsText = false;
    std::string key;
    CborSpan keySpan;
    std::uint64_t index = 0;
    // Indefinite strings: the chunks so far (text keys only need them).
    std::string collected;
};

struct Head {
    std::uint8_t major = 0;
    std::uint8_t info = 0;
    std::uint64_t argument = 0;
};

class Scanner {
public:
    Scanner(std::span<const std::uint8_t> bytes, const CborScanLimits& limits)
        : bytes_(bytes), limits_(limits) {}

    CborScanResult run();

private:
    bool fail(std::string message, std::uint64_t at) {
        result_.ok = false;
        result_.error = std::move(message);
        result_.errorOffset = at;
        return false;
    }
    std::uint64_t left() const { return bytes_.size() - pos_; }
    std::optional<Head> readHead();
    bool startItem();
    // An item [start, end) is complete; `text` is its text when it is a text string.
    bool complete(std::uint64_t start, std::uint64_t end, const std::string* text);
    bool push(Frame frame, std::uint64_t at);
    std::string childPath(const Frame& parent, std::string_view segment) const {
        if (parent.isRoot) {
            return std::string(segment);
        }
        std::string out = parent.path;
        out += kCborPathSeparator;
        out += segment;
        return out;
    }
    void record(std::string path, CborEntry entry) {
        if (!result_.entries.emplace(path, entry).second) {
            result_.duplicateKeys.push_back(std::move(path));
        }
    }

    std::span<const std::uint8_t> bytes_;
    CborScanLimits limits_;
    std::uint64_t pos_ = 0;
    std::vector<Frame> stack_;
    unsigned tags_ = 0;
    std::optional<std::uint64_t> taggedStart_;
    bool done_ = false;
    CborScanResult result_;
};

std::optional<Head> Scanner::readHead() {
    if (left() < 1) {
        fail("the manifest ends inside a CBOR item", pos_);
        return std::nullopt;
    }
    const std::uint8_t initial = bytes_[pos_];
    Head head{static_cast<std::uint8_t>(initial >> 5), static_cast<std::uint8_t>(initial & 31), 0};
    std::uint64_t extra = 0;
    if (head.info < 24) {
        head.argument = head.info;
    } else if (head.info <= 27) {
        extra = std::uint64_t{1} << (head.info - 24);
    } else if (head.info != 31) {
        fail("reserved CBOR additional information " + std::to_string(head.info), pos_);
        return std::nullopt;
    }
    if (left() < 1 + extra) {
        fail("the manifest ends inside a CBOR item header", pos_);
        return std::nullopt;
    }
    const std::uint8_t* p = bytes_.data() + pos_ + 1;
    switch (extra) {
        case 1:
            head.argument = p[0];
            break;
        case 2:
            head.argument = decodeBe<std::uint16_t>(p);
            break;
        case 4:
            head.argument = decodeBe<std::uint32_t>(p);
            break;
        case 8:
            head.argument = decodeBe<std::uint64_t>(p);
            break;
        default:
            break;
    }
    pos_ += 1 + extra;
    return head;
}

bool Scanner::push(Frame frame, std::uint64_t at) {
    if (stack_.size() + tags_ >= limits_.maxDepth) {
        return fail("CBOR nesting deeper than " + std::to_string(limits_.maxDepth) + " levels", at);
    }
    const std::size_t depth = stack_.size();
    frame.record = depth < limits_.recordDepth;
    if (stack_.empty()) {
        frame.isRoot = true;
    }
    stack_.push_back(std::move(frame));
    tags_ = 0;
    taggedStart_.reset();
    return true;
}

bool Scanner::startItem() {
    const std::uint64_t headStart = pos_;
    const std::uint64_t itemStart = taggedStart_.value_or(headStart);
    Frame* parent = stack_.empty() ? nullptr : &stack_.back();
    const auto head = readHead();
    if (!head) {
        return false;
    }
    if (head->major == 7 && head->info == 31) {
        if (taggedStart_ || parent == nullptr || !parent->indefinite) {
            return fail("unexpected CBOR break", headStart);
        }
        if (parent->type == FrameType::Map && !parent->expectKey) {
            return fail("CBOR map ends between a key and its value", headStart);
        }
        Frame finished = std::move(stack_.back());
        stack_.pop_back();
        const bool isText = finished.type == FrameType::IndefString && finished.stringMajor == 3;
        return complete(finished.start, pos_, isText ? &finished.collected : nullptr);
    }
    if (parent != nullptr && parent->type == FrameType::IndefString &&
        (head->major != parent->stringMajor || head->info == 31)) {
        return fail("an indefinite-length CBOR string holds a chunk of another type", headStart);
    }
    switch (head->major) {
        case 0:
        case 1:
            if (head->info == 31) {
                return fail("an integer cannot have indefinite length", headStart);
            }
            return complete(itemStart, pos_, nullptr);
        case 2:
        case 3: {
            if (head->info == 31) {
                Frame frame;
                frame.type = FrameType::IndefString;
                frame.indefinite = true;
                frame.stringMajor = head->major;
                frame.start = itemStart;
                return push(std::move(frame), headStart);
            }
            if (head->argument > left()) {
                return fail("a CBOR string of " + std::to_string(head->argument) +
                                " bytes runs past the end of the manifest",
                            headStart);
            }
            if (head->major == 3 && !validUtf8(bytes_.data() + pos_, head->argument)) {
                return fail("a CBOR text string is not valid UTF-8", headStart);
            }
            const auto* chars = reinterpret_cast<const char*>(bytes_.data() + pos_);
            pos_ += head->argument;
            if (head->major == 3) {
                const std::string text(chars, static_cast<std::size_t>(head->argument));
                return complete(itemStart, pos_, &text);
            }
            return complete(itemStart, pos_, nullptr);
        }
        case 4:
        case 5: {
            Frame frame;
            frame.type = head->major == 4 ? FrameType::Array : FrameType::Map;
            frame.start = itemStart;
            frame.indefinite = head->info == 31;
            if (!frame.indefinite) {
                // Every item takes at least one byte, so a count beyond the bytes left is a lie;
                // checking it here keeps a hostile count from costing anything.
                const std::uint64_t perItem = head->major == 4 ? 1 : 2;
                if (head->argument > left() / perItem) {
                    return fail("a CBOR " + std::string(head->major == 4 ? "array" : "map") +
                                    " claims " + std::to_string(head->argument) +
                                    " entries, more than the manifest can hold",
                                headStart);
                }
                frame.remaining = head->argument * perItem;
            }
            const bool empty = !frame.indefinite && frame.remaining == 0;
            if (!push(std::move(frame), headStart)) {
                return false;
            }
            if (empty) {
                Frame finished = std::move(stack_.back());
                stack_.pop_back();
                return complete(finished.start, pos_, nullptr);
            }
            return true;
        }
        case 6:
            if (head->info == 31) {
                return fail("a CBOR tag cannot have indefinite length", headStart);
            }
            if (stack_.size() + tags_ + 1 >= limits_.maxDepth) {
                return fail("CBOR tags nested deeper than " + std::to_string(limits_.maxDepth),
                            headStart);
            }
            ++tags_;
            taggedStart_ = itemStart;
            return true;
        default:  // 7: simple values and floats
            if (head->info == 24 && head->argument < 32) {
                return fail("a CBOR simple value in two bytes must be at least 32", headStart);
            }
            return complete(itemStart, pos_, nullptr);
    }
}

bool Scanner::complete(std::uint64_t start, std::uint64_t end, const std::string* text) {
    tags_ = 0;
    taggedStart_.reset();
    while (true) {
        if (stack_.empty()) {
            result_.ok = true;
            result_.end = end;
            done_ = true;
            return true;
        }
        Frame& parent = stack_.back();
        bool finished = false;
        switch (parent.type) {
            case FrameType::IndefString:
                if (text != nullptr) {
                    parent.collected += *text;
                }
                return true;
            case FrameType::Array:
                if (parent.record) {
                    record(childPath(parent, std::to_string(parent.index)),
                           {{start, 0}, {start, end - start}});
                }
                ++parent.index;
                break;
            case FrameType::Map:
                if (parent.expectKey) {
                    parent.keyIsText = text != nullptr;
                    parent.key = text != nullptr ? *text : std::string();
                    parent.keySpan = {start, end - start};
                    parent.expectKey = false;
                } else {
                    if (parent.record && parent.keyIsText) {
                        record(childPath(parent, parent.key),
                               {parent.keySpan, {start, end - start}});
                    }
                    parent.expectKey = true;
                }
                break;
        }
        if (!parent.indefinite) {
            --parent.remaining;
            finished = parent.remaining == 0;
        }
        if (!finished) {
            return true;
        }
        start = parent.start;
        text = nullptr;
        stack_.pop_back();
    }
}

CborScanResult Scanner::run() {
    if (bytes_.empty()) {
        fail("the manifest is empty", 0);
        return result_;
    }
    result_.rootMajor = static_cast<std::uint8_t>(bytes_[0] >> 5);
    while (!done_) {
        if (!startItem()) {
            return result_;
        }
        // A child container started: set its path now that the parent's key is known.
        if (!done_ && !stack_.empty() && stack_.back().path.empty() && stack_.size() > 1) {
            Frame& parent = stack_[stack_.size() - 2];
            Frame& child = stack_.back();
            if (parent.type == FrameType::Map && !parent.expectKey && parent.keyIsText) {
                child.path = childPath(parent, parent.key);
            } else if (parent.type == FrameType::Array) {
                child.path = childPath(parent, std::to_string(parent.index));
            } else {
                child.record = false;  // under a non-text key: nothing to name it by
            }
            if (child.path.empty()) {
                child.path = std::string(1, kCborPathSeparator);
            }
        }
    }
    return result_;
}

}  // namespace

CborScanResult scanCbor(std::span<const std::uint8_t> bytes, const CborScanLimits& limits) {
    return Scanner(bytes, limits).run();
}

}  // namespace strata::ztensor
