#include "ozdf_json.h"

#include <algorithm>
#include <istream>
#include <ostream>
#include <set>

#include "formats/common/byte_source.h"
#include "formats/common/json_error.h"
#include "ozdf_edit.h"
#include "ozdf_parser.h"
#include "ozdf_text.h"

namespace strata::ozdf {

namespace fs = std::filesystem;

namespace {

OrderedJson paragraphsJson(const std::vector<Paragraph>& paragraphs) {
    OrderedJson out = OrderedJson::array();
    for (const Paragraph& p : paragraphs) {
        out.push_back(p.text);
    }
    return out;
}

OrderedJson elementJson(const Element& element) {
    OrderedJson e = OrderedJson::object();
    e["kind"] = std::string(elementKindName(element.kind));
    switch (element.kind) {
        case ElementKind::Comment:
            e["text"] = element.text;
            break;
        case ElementKind::Block:
            e["name"] = element.name;
            e["paragraphs"] = paragraphsJson(element.paragraphs);
            break;
        case ElementKind::List:
        case ElementKind::ExternalList: {
            e["name"] = element.name;
            OrderedJson items = OrderedJson::array();
            for (const Item& item : element.items) {
                OrderedJson i = OrderedJson::object();
                i["name"] = item.name ? OrderedJson(*item.name) : OrderedJson(nullptr);
                i["paragraphs"] = paragraphsJson(item.paragraphs);
                items.push_back(std::move(i));
            }
            e["items"] = std::move(items);
            break;
        }
    }
    return e;
}

const nlohmann::ordered_json& member(const nlohmann::ordered_json& object, const char* key,
                                     nlohmann::json::value_t type, const std::string& where) {
    const auto it = object.find(key);
    if (it == object.end()) {
        throw JsonImportError(where + ": missing \"" + key + "\"");
    }
    if (it->type() != type) {
        throw JsonImportError(where + ": \"" + key + "\" has the wrong type");
    }
    return *it;
}

std::string text(const nlohmann::ordered_json& value, const std::string& where) {
    if (!value.is_string()) {
        throw JsonImportError(where + ": expected a string");
    }
    const std::string& s = value.get_ref<const std::string&>();
    if (sanitizeUtf8(s) != s) {
        throw JsonImportError(where + ": not valid UTF-8");
    }
    return s;
}

// The strings of `object[key]`, each valid UTF-8.
std::vector<std::string> textsFromJson(const nlohmann::ordered_json& object, const char* key,
                                       const std::string& where) {
    std::vector<std::string> out;
    const auto& list = member(object, key, nlohmann::json::value_t::array, where);
    for (std::size_t i = 0; i < list.size(); ++i) {
        out.push_back(text(list[i], where + "." + key + "[" + std::to_string(i) + "]"));
    }
    return out;
}

ElementKind kindFromName(const std::string& kind, const std::string& where) {
    for (ElementKind k :
         {ElementKind::Block, ElementKind::List, ElementKind::ExternalList, ElementKind::Comment}) {
        if (elementKindName(k) == kind) {
            return k;
        }
    }
    throw JsonImportError(where + ": unknown element kind \"" + kind + "\"");
}

// Runs one edit; what it refuses is refused by the import, named by `where`.
template <class Edit>
void edit(const std::string& where, Edit&& apply) {
    try {
        apply();
    } catch (const EditError& error) {
        throw JsonImportError(where + ": " + error.what());
    }
}

std::size_t paragraphCount(const Document& document, const ParagraphOwner& owner) {
    const Element& element = document.elements.at(owner.element);
    return owner.item ? element.items.at(*owner.item).paragraphs.size() : element.paragraphs.size();
}

// Paragraphs go in through the edits, so they are normalised as the reader will see them (a
// text with a blank line becomes two paragraphs) and refused when no file could hold them.
void addParagraphs(Document& document, const ParagraphOwner& owner,
                   const std::vector<std::string>& texts, const std::string& where) {
    for (std::size_t p = 0; p < texts.size(); ++p) {
        const std::string at = where + ".paragraphs[" + std::to_string(p) + "]";
        edit(at, [&] {
            const std::size_t count = paragraphCount(document, owner);
            insertParagraph(document, owner, count, texts[p]);
        });
    }
}

// Appends the element `json` describes to `document` through the same edits the editor uses,
// so an imported document is one Strata can write and read back the same.
void addElementFromJson(Document& document, const nlohmann::ordered_json& json,
                        const std::string& where) {
    if (!json.is_object()) {
        throw JsonImportError(where + ": expected an object");
    }
    const ElementKind kind = kindFromName(
        text(member(json, "kind", nlohmann::json::value_t::string, where), where + ".kind"), where);
    const std::size_t index = document.elements.size();
    if (kind == ElementKind::Comment) {
        const std::string comment =
            text(member(json, "text", nlohmann::json::value_t::string, where), where + ".text");
        edit(where, [&] {
            insertElement(document, index, kind, "");
            setCommentText(document, index, comment);
        });
        return;
    }
    const std::string name =
        text(member(json, "name", nlohmann::json::value_t::string, where), where + ".name");
    edit(where, [&] { insertElement(document, index, kind, name); });
    if (kind == ElementKind::Block) {
        addParagraphs(document, {index, std::nullopt}, textsFromJson(json, "paragraphs", where),
                      where);
        return;
    }
    const auto& items = member(json, "items", nlohmann::json::value_t::array, where);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string at = where + ".items[" + std::to_string(i) + "]";
        if (!items[i].is_object()) {
            throw JsonImportError(at + ": expected an object");
        }
        std::optional<std::string> itemName;
        const auto found = items[i].find("name");
        if (found != items[i].end() && !found->is_null()) {
            itemName = text(*found, at + ".name");
        }
        // An item of an external list gets the name its part reads back with.
        edit(at, [&] { insertItem(document, index, i, itemName); });
        addParagraphs(document, {index, i}, textsFromJson(items[i], "paragraphs", at), at);
    }
}

bool safeFileName(const std::string& name) {
    return !name.empty() && name != "." && name != ".." &&
           name.find_first_of(std::string_view("/\0", 2)) == std::string::npos;
}

}  // namespace

OrderedJson documentJson(const Document& document) {
    OrderedJson elements = OrderedJson::array();
    for (const Element& element : document.elements) {
        elements.push_back(elementJson(element));
    }
    OrderedJson out = OrderedJson::object();
    out["filename"] = document.filename;
    out["is_directory"] = document.isDirectory;
    out["elements"] = std::move(elements);
    return out;
}

OrderedJson corpusJson(const Corpus& corpus) {
    OrderedJson documents = OrderedJson::array();
    for (const Document& document : corpus.documents) {
        documents.push_back(documentJson(document));
    }
    OrderedJson out = OrderedJson::object();
    out["kind"] = "corpus";
    out["documents"] = std::move(documents);
    return out;
}

OrderedJson dumpJson(const fs::path& path, bool* accepted) {
    return dumpJson(TreeReader(), path, accepted);
}

OrderedJson dumpJson(const TreeReader& reader, const fs::path& path, bool* accepted) {
    if (reader.isDirectory(path) && !reader.opensAsDocument(path)) {
        const Corpus corpus = reader.readCorpus(path);
        if (accepted != nullptr) {
            *accepted = corpus.accepted();
        }
        return corpusJson(corpus);
    }
    const Document document = reader.readDocument(path);
    if (accepted != nullptr) {
        *accepted = document.accepted();
    }
    OrderedJson out = OrderedJson::object();
    out["kind"] = "document";
    out["document"] = documentJson(document);
    return out;
}

Document documentFromJson(const nlohmann::ordered_json& json) {
    const std::string where = "document";
    if (!json.is_object()) {
        throw JsonImportError(where + ": expected an object");
    }
    Document document;
    document.filename =
        text(member(json, "filename", nlohmann::json::value_t::string, where), where + ".filename");
    document.isDirectory =
        member(json, "is_directory", nlohmann::json::value_t::boolean, where).get<bool>();
    const auto& elements = member(json, "elements", nlohmann::json::value_t::array, where);
    for (std::size_t i = 0; i < elements.size(); ++i) {
        addElementFromJson(document, elements[i], where + ".elements[" + std::to_string(i) + "]");
    }
    return document;
}

void exportJsonl(const Corpus& corpus, std::ostream& out) {
    for (const Document& document : corpus.documents) {
        // Invalid UTF-8 (read as U+FFFD by Strata) must not make the dump throw.
        out << documentJson(document).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
            << '\n';
    }
}

Corpus importJsonl(std::istream& in) {
    Corpus corpus;
    std::set<std::string> names;
    std::string line;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
        if (trimSpaces(line).begin == trimSpaces(line).end) {
            continue;
        }
        const std::string where = "line " + std::to_string(number);
        nlohmann::ordered_json json;
        try {
            json = nlohmann::ordered_json::parse(line);
        } catch (const nlohmann::json::exception& error) {
            throw JsonImportError(where + ": " + jsonErrorText(error.what()));
        }
        Document document;
        try {
            document = documentFromJson(json);
        } catch (const JsonImportError& error) {
            throw JsonImportError(where + ": " + jsonErrorText(error.what()));
        }
        if (!safeFileName(document.filename)) {
            throw JsonImportError(where + ": unsafe file name \"" + document.filename + "\"");
        }
        if (!document.isDirectory && !document.filename.ends_with(".ozdf")) {
            throw JsonImportError(where + ": standalone document \"" + document.filename +
                                  "\" does not end in .ozdf");
        }
        if (!names.insert(document.filename).second) {
            throw JsonImportError(where + ": duplicate file name \"" + document.filename + "\"");
        }
        corpus.documents.push_back(std::move(document));
    }
    std::sort(corpus.documents.begin(), corpus.documents.end(),
              [](const Document& a, const Document& b) { return a.filename < b.filename; });
    return corpus;
}

}  // namespace strata::ozdf
