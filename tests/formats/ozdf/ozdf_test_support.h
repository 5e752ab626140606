// Shared helpers of the OZDF tests: where the corpus is, and the reference's JSON shape.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "formats/common/diff.h"
#include "formats/ozdf/ozdf_document.h"
#include "test_corpus.h"

namespace strata::ozdf::test {

// A diff sink that only counts what it is given.
struct CountingDiffSink final : DiffSink {
    std::size_t count = 0;
    bool add(Difference) override {
        ++count;
        return true;
    }
};

inline std::filesystem::path corpusDir() {
    return strata::test::corpusRoot() / "ozdf";
}

inline nlohmann::json toJson(const Document& document) {
    nlohmann::json elements = nlohmann::json::array();
    for (const Element& element : document.elements) {
        nlohmann::json e;
        e["kind"] = std::string(elementKindName(element.kind));
        if (element.kind == ElementKind::Comment) {
            e["text"] = element.text;
        } else {
            e["name"] = element.name;
        }
        auto paragraphs = [](const std::vector<Paragraph>& list) {
            nlohmann::json out = nlohmann::json::array();
            for (const Paragraph& p : list) {
                out.push_back(p.text);
            }
            return out;
        };
        if (element.kind == ElementKind::Block) {
            e["paragraphs"] = paragraphs(element.paragraphs);
        } else if (element.kind != ElementKind::Comment) {
            nlohmann::json items = nlohmann::json::array();
            for (const Item& item : element.items) {
                nlohmann::json i;
                i["name"] = item.name ? nlohmann::json(*item.name) : nlohmann::json(nullptr);
                i["paragraphs"] = paragraphs(item.paragraphs);
                items.push_back(std::move(i));
            }
            e["items"] = std::move(items);
        }
        elements.push_back(std::move(e));
    }
    return {{"filename", document.filename},
            {"is_directory", document.isDirectory},
            {"elements", std::move(elements)}};
}

inline nlohmann::json toJson(const Corpus& corpus) {
    nlohmann::json documents = nlohmann::json::array();
    for (const Document& document : corpus.documents) {
        documents.push_back(toJson(document));
    }
    return {{"kind", "corpus"}, {"documents", std::move(documents)}};
}

}  // namespace strata::ozdf::test
