// What the Shardlake repair can read of a damaged JSON document (shardlake_repair_parts.h): the
// documents of a root are written pretty, one member per line at two spaces per level, so a
// member's text runs from its line to the next line of its level. Each member is parsed on its
// own; one that does not parse but opens an object or array is read member by member in turn.
#include "shardlake_repair_parts.h"

namespace strata::shardlake::repair {

namespace {

struct Line {
    std::size_t offset = 0;  // in the text
    std::string_view text;   // without its line break
    std::size_t indent = 0;  // leading spaces
};

std::vector<Line> linesOf(std::string_view text) {
    std::vector<Line> out;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        Line line{at, text.substr(at, end - at), 0};
        line.indent = std::min(line.text.find_first_not_of(' '), line.text.size());
        out.push_back(line);
        if (end == text.size()) {
            break;
        }
        at = end + 1;
    }
    return out;
}

char firstChar(const Line& line) {
    return line.indent < line.text.size() ? line.text[line.indent] : '\0';
}

// The key a member's first line starts with ("  \"dims\": 16," → dims), when it can be read.
std::optional<std::string> keyOf(const Line& line) {
    const std::string_view rest = line.text.substr(line.indent);
    std::size_t i = 1;
    for (; i < rest.size() && rest[i] != '"'; ++i) {
        i += rest[i] == '\\' ? 1 : 0;
    }
    if (rest.empty() || rest[0] != '"' || i >= rest.size()) {
        return std::nullopt;
    }
    const auto key = parseObject("{" + std::string(rest.substr(0, i + 1)) + ":0}");
    if (!key || key->size() != 1) {
        return std::nullopt;
    }
    return key->begin().key();
}

class LayoutSalvage {
public:
    LayoutSalvage(std::string_view text, std::vector<LostMember>& lost)
        : text_(text), lines_(linesOf(text)), lost_(lost) {}

    // The members of the container whose contents are lines [from, to) at `indent`.
    ojson container(std::size_t from, std::size_t to, std::size_t indent, bool object,
                    const std::string& path) {
        ojson out = object ? ojson::object() : ojson::array();
        std::vector<std::size_t> starts;
        for (std::size_t i = from; i < to; ++i) {
            const char c = firstChar(lines_[i]);
            if (lines_[i].indent == indent && c != '\0' && c != '}' && c != ']' &&
                (!object || c == '"')) {
                starts.push_back(i);
            }
        }
        for (std::size_t k = 0; k < starts.size(); ++k) {
            const std::size_t end = k + 1 < starts.size() ? starts[k + 1] : to;
            member(out, starts[k], end, indent, object,
                   object ? path : path + "[" + std::to_string(k) + "]");
        }
        return out;
    }

private:
    // Lines [first, end) hold one member of `out`.
    void member(ojson& out, std::size_t first, std::size_t end, std::size_t indent, bool object,
                const std::string& path) {
        std::string text = joined(first, end);
        while (!text.empty() &&
               (std::isspace(static_cast<unsigned char>(text.back())) || text.back() == ',')) {
            text.pop_back();
        }
        const auto key = object ? keyOf(lines_[first]) : std::nullopt;
        const std::string at = object ? (key ? join(path, *key) : path + ".?") : path;
        if (object) {
            if (auto one = parseObject("{" + text + "}"); one && one->size() == 1) {
                out[one->begin().key()] = one->begin().value();
                return;
            }
        } else {
            const ojson one = ojson::parse("[" + text + "]", nullptr, false);
            if (!one.is_discarded() && one.size() == 1) {
                out.push_back(one[0]);
                return;
            }
        }
        const std::string_view firstLine = lines_[first].text;
        const char opens = firstLine.empty() ? '\0' : firstLine.back();
        if ((!object || key) && (opens == '{' || opens == '[')) {
            // Read it member by member, up to the line that closes it (or the member's end).
            std::size_t close = end;
            for (std::size_t i = end; i-- > first + 1;) {
                if (lines_[i].indent == indent &&
                    (firstChar(lines_[i]) == '}' || firstChar(lines_[i]) == ']')) {
                    close = i;
                    break;
                }
            }
            const std::size_t lostBefore = lost_.size();
            ojson inner = container(first + 1, close, indent + 2, opens == '{', at);
            // An array of values with one missing would be another value: kept only whole.
            const bool whole = opens == '{' || lost_.size() == lostBefore ||
                               std::all_of(inner.begin(), inner.end(),
                                           [](const ojson& v) { return v.is_object(); });
            if (whole) {
                if (object) {
                    out[*key] = std::move(inner);
                } else {
                    out.push_back(std::move(inner));
                }
                return;
            }
            lost_.resize(lostBefore);
        }
        const std::size_t from = lines_[first].offset;
        const std::size_t until = end < lines_.size() ? lines_[end].offset : text_.size();
        lost_.push_back({at, from, until - from});
    }

    std::string joined(std::size_t first, std::size_t end) const {
        const std::size_t from = lines_[first].offset;
        const std::size_t until = end < lines_.size() ? lines_[end].offset : text_.size();
        return std::string(text_.substr(from, until - from));
    }

    static std::string join(const std::string& path, const std::string& key) {
        return path.empty() ? key : path + "." + key;
    }

    std::string_view text_;
    std::vector<Line> lines_;
    std::vector<LostMember>& lost_;
};

}  // namespace

std::optional<SalvagedJson> salvageByLayout(std::string_view text) {
    SalvagedJson out;
    LayoutSalvage salvage(text, out.lost);
    const std::vector<Line> lines = linesOf(text);
    if (lines.empty() || lines.front().text != "{") {
        return std::nullopt;  // not the pretty layout: nothing tells the members apart
    }
    std::size_t close = lines.size();
    for (std::size_t i = lines.size(); i-- > 1;) {
        if (lines[i].indent == 0 && firstChar(lines[i]) == '}') {
            close = i;
            break;
        }
    }
    out.value = salvage.container(1, close, 2, true, "");
    if (out.value.empty()) {
        return std::nullopt;
    }
    if (close == lines.size()) {  // no closing brace: cut short, whatever followed is unknown
        const std::size_t from = lines.back().offset;
        out.lost.push_back({"", from, text.size() - from});
    }
    return out;
}

}  // namespace strata::shardlake::repair
