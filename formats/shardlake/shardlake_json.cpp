#include "shardlake_json.h"

#include <simdjson.h>

#include "formats/common/json_error.h"

namespace strata::shardlake {

// A structural JSON scanner: finds where each value starts and ends without building it.
class JsonSpanScanner {
public:
    JsonSpanScanner(std::string_view text, int maxDepth, JsonSpans& out)
        : text_(text), maxDepth_(maxDepth), out_(out) {}

    void run() { (void)value(std::string(), 0); }

private:
    static constexpr int kNestingLimit = 128;

    void skipSpace() {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                       text_[pos_] == '\r' || text_[pos_] == '\t')) {
            ++pos_;
        }
    }
    bool peek(char c) {
        skipSpace();
        return pos_ < text_.size() && text_[pos_] == c;
    }
    // Advances over a string starting at the opening quote; returns its raw contents.
    std::optional<std::string_view> string() {
        const std::size_t start = ++pos_;
        while (pos_ < text_.size() && text_[pos_] != '"') {
            pos_ += text_[pos_] == '\\' ? 2 : 1;
        }
        if (pos_ >= text_.size()) {
            return std::nullopt;
        }
        return text_.substr(start, pos_++ - start);
    }
    bool value(const std::string& pointer, int depth) {
        skipSpace();
        if (pos_ >= text_.size() || depth > kNestingLimit) {
            return false;
        }
        const std::size_t start = pos_;
        bool ok = true;
        const char c = text_[pos_];
        if (c == '{') {
            ok = object(pointer, depth);
        } else if (c == '[') {
            ok = array(pointer, depth);
        } else if (c == '"') {
            ok = string().has_value();
        } else {
            while (pos_ < text_.size() &&
                   std::string_view(",]}: \n\r\t").find(text_[pos_]) == std::string_view::npos) {
                ++pos_;
            }
            ok = pos_ > start;
        }
        if (ok && depth <= maxDepth_) {
            out_.spans_[pointer] = {start, pos_ - start};
        }
        return ok;
    }
    bool object(const std::string& pointer, int depth) {
        ++pos_;
        if (peek('}')) {
            ++pos_;
            return true;
        }
        while (true) {
            if (!peek('"')) {
                return false;
            }
            const auto key = string();
            if (!key || !peek(':')) {
                return false;
            }
            ++pos_;
            const std::string child =
                depth < maxDepth_ ? pointer + "/" + escape(*key) : std::string();
            if (!value(child, depth + 1)) {
                return false;
            }
            if (peek(',')) {
                ++pos_;
                continue;
            }
            if (peek('}')) {
                ++pos_;
                return true;
            }
            return false;
        }
    }
    bool array(const std::string& pointer, int depth) {
        ++pos_;
        if (peek(']')) {
            ++pos_;
            return true;
        }
        for (std::size_t index = 0;; ++index) {
            const std::string child =
                depth < maxDepth_ ? pointer + "/" + std::to_string(index) : std::string();
            if (!value(child, depth + 1)) {
                return false;
            }
            if (peek(',')) {
                ++pos_;
                continue;
            }
            if (peek(']')) {
                ++pos_;
                return true;
            }
            return false;
        }
    }
    static std::string escape(std::string_view key) {
        std::string out;
        for (const char c : key) {
            if (c == '~') {
                out += "~0";
            } else if (c == '/') {
                out += "~1";
            } else {
                out += c;
            }
        }
        return out;
    }

    std::string_view text_;
    int maxDepth_;
    JsonSpans& out_;
    std::size_t pos_ = 0;
};

JsonSpans JsonSpans::scan(std::string_view text, int maxDepth) {
    JsonSpans spans;
    JsonSpanScanner(text, maxDepth, spans).run();
    return spans;
}

std::optional<std::pair<std::uint64_t, std::uint64_t>> JsonSpans::find(
    const std::string& pointer) const {
    const auto it = spans_.find(pointer);
    if (it == spans_.end()) {
        return std::nullopt;
    }
    return it->second;
}

Region JsonDoc::whole() const {
    return source ? Region{source.get(), 0, source->size()} : Region{};
}

Region JsonDoc::regionOf(const std::string& pointer) const {
    if (const auto span = spans.find(pointer); span && source) {
        return {source.get(), span->first, span->second};
    }
    return whole();
}

JsonDoc loadJson(ByteSourcePtr source) {
    JsonDoc doc;
    doc.source = std::move(source);
    if (!doc.source) {
        doc.error = "file missing";
        return doc;
    }
    if (doc.source->size() > kMaxJsonBytes) {
        doc.error = "JSON file larger than " + std::to_string(kMaxJsonBytes) + " bytes";
        return doc;
    }
    const ByteView view = doc.source->view(0, doc.source->size());
    const std::string_view text(reinterpret_cast<const char*>(view.data()), view.size());
    try {
        doc.value = nlohmann::json::parse(text);
        doc.parsed = true;
    } catch (const nlohmann::json::parse_error& e) {
        doc.error = jsonErrorText(e.what());
        doc.errorOffset = e.byte > 0 ? e.byte - 1 : 0;
    }
    doc.spans = JsonSpans::scan(text);
    return doc;
}

bool holdsJsonObject(const ByteSource& source) {
    if (source.size() > kMaxJsonBytes) {
        return !largeJsonObjectProblem(source);  // too large for a tree: one pass that keeps none
    }
    const ByteView view = source.view(0, source.size());
    if (view.size() != source.size()) {
        return false;
    }
    const simdjson::padded_string text(reinterpret_cast<const char*>(view.data()), view.size());
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    return parser.parse(text).get(root) == simdjson::SUCCESS && root.is_object();
}

namespace {

// Keeps nothing: notes whether the top value is an object, and the first error.
class ObjectShapeSax final : public nlohmann::json_sax<nlohmann::json> {
public:
    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override { return open(true); }
    bool key(string_t&) override { return true; }
    bool end_object() override { return close(); }
    bool start_array(std::size_t) override { return open(false); }
    bool end_array() override { return close(); }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& e) override {
        problem = JsonObjectProblem{jsonErrorText(e.what()), position > 0 ? position - 1 : 0};
        return false;
    }

    bool topIsObject = false;
    std::optional<JsonObjectProblem> problem;

private:
    bool value() { return true; }
    bool open(bool object) {
        if (depth_++ == 0) {
            topIsObject = object;
        }
        return true;
    }
    bool close() {
        --depth_;
        return true;
    }
    std::uint64_t depth_ = 0;
};

}  // namespace

std::optional<JsonObjectProblem> largeJsonObjectProblem(const ByteSource& source) {
    // A file read on demand is mapped for the pass: a view of all of it would copy it.
    const ByteSourcePtr mapped = mappedForScan(source);
    const ByteSource& bytes = mapped ? *mapped : source;
    const ByteView view = bytes.view(0, bytes.size());
    if (view.size() != bytes.size()) {
        return JsonObjectProblem{"the file could not be read whole", view.size()};
    }
    ObjectShapeSax sax;
    const char* text = reinterpret_cast<const char*>(view.data());
    nlohmann::json::sax_parse(text, text + view.size(), &sax);
    if (sax.problem) {
        return sax.problem;
    }
    if (!sax.topIsObject) {
        return JsonObjectProblem{"it is not a JSON object", 0};
    }
    return std::nullopt;
}

std::string pointerOf(std::string_view a, std::size_t index, std::string_view b) {
    std::string out = std::string(a) + "/" + std::to_string(index);
    if (!b.empty()) {
        out += "/";
        out += b;
    }
    return out;
}

}  // namespace strata::shardlake
