#include "zds_search.h"

#include <simdjson.h>
#include <algorithm>
#include <cctype>
#include <regex>

#include "zds_line_index.h"
#include "zds_live_set.h"
#include "zds_reader.h"

namespace strata::zds {

namespace {

constexpr std::uint64_t kProgressEvery = 4096;
constexpr std::size_t kRegexStep = kZdsRegexWindow / 2;
constexpr std::size_t kSnippetLimit = 200;

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string clip(std::string_view s) {
    return std::string(s.substr(0, kSnippetLimit)) + (s.size() > kSnippetLimit ? "…" : "");
}

// A scalar comparison value: the query's JSON, or its text as a string.
struct Operand {
    enum class Kind { Number, String, Bool, Null, Other } kind = Kind::String;
    double number = 0;
    std::string text;  // string value, or minified JSON for Other
    bool boolean = false;
};

Operand operandOf(simdjson::dom::element e) {
    Operand o;
    switch (e.type()) {
        case simdjson::dom::element_type::INT64:
        case simdjson::dom::element_type::UINT64:
        case simdjson::dom::element_type::DOUBLE:
            o.kind = Operand::Kind::Number;
            o.number = e.get_double().value_unsafe();
            o.text = simdjson::minify(e);
            break;
        case simdjson::dom::element_type::STRING:
            o.kind = Operand::Kind::String;
            o.text = std::string(e.get_string().value_unsafe());
            break;
        case simdjson::dom::element_type::BOOL:
            o.kind = Operand::Kind::Bool;
            o.boolean = e.get_bool().value_unsafe();
            o.text = o.boolean ? "true" : "false";
            break;
        case simdjson::dom::element_type::NULL_VALUE:
            o.kind = Operand::Kind::Null;
            o.text = "null";
            break;
        default:
            o.kind = Operand::Kind::Other;
            o.text = simdjson::minify(e);
            break;
    }
    return o;
}

std::string normalisePointer(const std::string& p) {
    if (p.empty() || p.front() == '/') {
        return p;
    }
    std::string out = "/";
    for (char c : p) {  // one key: escape as RFC 6901 says
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

}  // namespace

struct ZdsMatcher::Impl {
    std::optional<std::regex> regex;
    std::optional<Operand> operand;  // Field Equals / Less / Greater
    std::string needle;              // Contains (lower-cased when ignoring case)
    std::string pointer;

    bool regexSearch(std::string_view subject) const {
        // Windows overlap by half, so a match shorter than kRegexStep is never cut in two.
        subject = subject.substr(0, kZdsRegexScanLimit);
        for (std::size_t at = 0;; at += kRegexStep) {
            const auto part = subject.substr(at, kZdsRegexWindow);
            if (std::regex_search(part.begin(), part.end(), *regex)) {
                return true;
            }
            if (at + kZdsRegexWindow >= subject.size()) {
                return false;
            }
        }
    }
    bool contains(std::string_view hay, bool ignoreCase) const {
        if (ignoreCase) {
            return lower(hay).find(needle) != std::string::npos;
        }
        return hay.find(needle) != std::string_view::npos;
    }
};

ZdsMatcher::ZdsMatcher(const ZdsQuery& query) : query_(query) {}

std::optional<ZdsMatcher> ZdsMatcher::compile(const ZdsQuery& query, std::string* error) {
    auto fail = [&](std::string why) -> std::optional<ZdsMatcher> {
        if (error != nullptr) {
            *error = std::move(why);
        }
        return std::nullopt;
    };
    ZdsMatcher m(query);
    auto impl = std::make_shared<Impl>();
    using Op = ZdsQuery::Op;
    if (query.op == Op::Regex) {
        try {
            auto flags = std::regex::ECMAScript;
            if (query.ignoreCase) {
                flags |= std::regex::icase;
            }
            impl->regex.emplace(query.value, flags);
        } catch (const std::regex_error& e) {
            return fail("bad regular expression: " + std::string(e.what()));
        }
    }
    impl->needle = query.ignoreCase ? lower(query.value) : query.value;
    if (query.target == ZdsQuery::Target::Field) {
        if (query.pointer.empty()) {
            return fail("a field search needs a JSON pointer");
        }
        impl->pointer = normalisePointer(query.pointer);
        if (query.op == Op::Equals || query.op == Op::Less || query.op == Op::Greater) {
            simdjson::dom::parser parser;
            simdjson::dom::element e;
            if (parser.parse(query.value).get(e) == simdjson::SUCCESS) {
                impl->operand = operandOf(e);
            } else {
                impl->operand = Operand{};
                impl->operand->text = query.value;
            }
            if (query.op != Op::Equals && impl->operand->kind != Operand::Kind::Number &&
                impl->operand->kind != Operand::Kind::String) {
                return fail("< and > compare numbers or strings");
            }
        }
    }
    if (query.target == ZdsQuery::Target::Text &&
        (query.op == Op::Less || query.op == Op::Greater)) {
        return fail("< and > do not apply to a text search");
    }
    m.impl_ = std::move(impl);
    return m;
}

bool ZdsMatcher::matches(std::string_view id, std::span<const std::uint8_t> json,
                         std::string* snippet) const {
    using Op = ZdsQuery::Op;
    const Impl& impl = *impl_;
    const auto setSnippet = [&](std::string_view s) {
        if (snippet != nullptr) {
            *snippet = clip(s);
        }
    };
    const auto compareText = [&](std::string_view subject) {
        switch (query_.op) {
            case Op::Equals:
                return query_.ignoreCase ? lower(subject) == impl.needle : subject == query_.value;
            case Op::Less:
                return subject < std::string_view(query_.value);
            case Op::Greater:
                return subject > std::string_view(query_.value);
            case Op::Contains:
                return impl.contains(subject, query_.ignoreCase);
            case Op::Regex:
                return impl.regexSearch(subject);
        }
        return false;
    };
    if (query_.target == ZdsQuery::Target::Id) {
        const bool hit = compareText(id);
        if (hit) {
            setSnippet(id);
        }
        return hit;
    }
    const std::string_view text(reinterpret_cast<const char*>(json.data()), json.size());
    if (query_.target == ZdsQuery::Target::Text) {
        if (!compareText(text)) {
            return false;
        }
        if (query_.op == Op::Contains && snippet != nullptr) {
            const auto at =
                query_.ignoreCase ? lower(text).find(impl.needle) : text.find(query_.value);
            const auto from = at > 40 ? at - 40 : 0;
            setSnippet(text.substr(from, kSnippetLimit));
        } else {
            setSnippet(text);
        }
        return true;
    }

    // Field: parse the document, follow the pointer.
    thread_local simdjson::dom::parser parser;
    simdjson::dom::element root;
    if (parser.parse(json.data(), json.size()).get(root) != simdjson::SUCCESS) {
        return false;
    }
    simdjson::dom::element value;
    if (root.at_pointer(impl.pointer).get(value) != simdjson::SUCCESS) {
        return false;
    }
    const Operand field = operandOf(value);
    bool hit = false;
    if (query_.op == Op::Contains || query_.op == Op::Regex) {
        hit = compareText(field.text);
        simdjson::dom::array items;  // named: iterating a temporary array trips GCC 12's
                                     // -Wdangling-pointer inside simdjson at -O2
        if (!hit && query_.op == Op::Contains &&
            value.get_array().get(items) == simdjson::SUCCESS) {
            for (simdjson::dom::element item : items) {
                if (compareText(operandOf(item).text)) {
                    hit = true;
                    break;
                }
            }
        }
    } else {
        const Operand& want = *impl.operand;
        if (field.kind == Operand::Kind::Number && want.kind == Operand::Kind::Number) {
            hit = query_.op == Op::Equals ? field.number == want.number
                  : query_.op == Op::Less ? field.number < want.number
                                          : field.number > want.number;
        } else if (field.kind == want.kind) {
            hit = query_.op == Op::Equals ? field.text == want.text
                  : query_.op == Op::Less ? field.text < want.text
                                          : field.text > want.text;
        }
    }
    if (hit) {
        setSnippet(field.kind == Operand::Kind::String ? simdjson::minify(value) : field.text);
    }
    return hit;
}

ZdsSearchOutcome searchZdsCollection(const ZdsCollection& c, const ZdsMatcher& matcher,
                                     const std::function<bool(const ZdsSearchHit&)>& onHit,
                                     const ZdsSearchOptions& options) {
    ZdsSearchOutcome out;
    const ZdsQuery& q = matcher.query();
    const auto report = [&](std::uint64_t document, std::uint64_t position, std::string snippet) {
        const ZdsDocument doc = c.document(document);
        ZdsSearchHit hit{document, position, doc.id, doc.region, std::move(snippet)};
        ++out.hits;
        return onHit(hit) && (options.maxHits == 0 || out.hits < options.maxHits);
    };
    const auto live = c.liveSet();
    // An exact id: one lookup, no document is read.
    if (q.target == ZdsQuery::Target::Id && q.op == ZdsQuery::Op::Equals && !q.ignoreCase) {
        out.usedIndex = live->fromIndex();
        out.scanned = live->size();
        if (const auto hit = live->find(q.value)) {
            report(*hit, *hit, q.value);
        }
        return out;
    }
    const bool needBytes = q.target != ZdsQuery::Target::Id;
    const std::uint64_t n = live->size();
    for (std::uint64_t i = 0; i < n; ++i) {
        if (i % kProgressEvery == 0) {
            if (options.cancelled()) {
                out.cancelled = true;
                return out;
            }
            if (options.progress) {
                options.progress(double(i) / double(n),
                                 "document " + std::to_string(i) + " of " + std::to_string(n));
            }
        }
        ++out.scanned;
        std::string snippet;
        bool hit = false;
        if (needBytes) {
            const ByteView bytes = c.documentBytes(i);
            hit = matcher.matches({}, bytes.bytes, &snippet);
        } else {
            hit = matcher.matches(std::string(live->id(i)), {}, &snippet);
        }
        if (hit && !report(i, i, std::move(snippet))) {
            break;
        }
    }
    if (options.progress) {
        options.progress(1.0, std::to_string(out.hits) + " matches");
    }
    return out;
}

}  // namespace strata::zds
