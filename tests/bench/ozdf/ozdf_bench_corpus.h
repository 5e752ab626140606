// The benchmark corpus, shaped like the reference benchmark's: 400 documents, 300 standalone
// with a 20-item list and 100 directory documents with 20 parts each, eight paragraphs of 140
// words per item, some non-ASCII words (about 50 MB written canonically). Deterministic.
#pragma once

#include <cstdio>
#include <iterator>
#include <random>
#include <string>

#include "formats/ozdf/ozdf_document.h"

namespace strata::ozdf {

inline Paragraph benchParagraph(std::mt19937& random) {
    static const char* const words[] = {"the",   "river",  "ran", "north", "through", "café",
                                        "naïve", "stone",  "of",  "light", "Ωmega",   "and",
                                        "years", "beyond", "a",   "quiet", "town",    "straße"};
    Paragraph p;
    for (int w = 0; w < 140; ++w) {
        p.text += (w == 0 ? "" : " ");
        p.text += words[random() % std::size(words)];
    }
    return p;
}

inline Element benchList(std::mt19937& random, ElementKind kind) {
    Element e;
    e.kind = kind;
    e.name = "CHAPTERS";
    for (int i = 0; i < 20; ++i) {
        Item item;
        item.name = "Chapter " + std::to_string(i + 1);
        for (int p = 0; p < 8; ++p) {
            item.paragraphs.push_back(benchParagraph(random));
        }
        e.items.push_back(std::move(item));
    }
    return e;
}

inline Corpus benchCorpus() {
    std::mt19937 random(42);
    Corpus corpus;
    for (int i = 0; i < 400; ++i) {
        Document d;
        d.isDirectory = i >= 300;
        char name[32];
        std::snprintf(name, sizeof name, d.isDirectory ? "dir%03d" : "doc%03d.ozdf", i);
        d.filename = name;
        Element title;
        title.name = "TITLE";
        title.paragraphs.push_back(benchParagraph(random));
        d.elements.push_back(std::move(title));
        d.elements.push_back(
            benchList(random, d.isDirectory ? ElementKind::ExternalList : ElementKind::List));
        corpus.documents.push_back(std::move(d));
    }
    return corpus;
}

}  // namespace strata::ozdf
