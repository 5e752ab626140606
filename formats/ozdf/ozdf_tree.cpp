#include "ozdf_tree.h"

#include "formats/common/counted.h"
#include "ozdf_listed_corpus.h"
#include "ozdf_parser.h"

namespace strata::ozdf {

namespace {

// An eager node whose children may live in other files (parts, corpus documents), where the
// binary search of Node::childIndexAt does not apply.
class OzdfNode final : public Node {
public:
    OzdfNode(std::string kind, std::string label, Region region, bool sorted)
        : Node(std::move(kind), std::move(label), region), sorted_(sorted) {}

protected:
    bool childrenSortedByOffset() const override { return sorted_; }

private:
    bool sorted_;
};

std::unique_ptr<Node> makeNode(std::string kind, std::string label, Region region,
                               bool sorted = true) {
    return std::make_unique<OzdfNode>(std::move(kind), std::move(label), region, sorted);
}

// A one-line preview: at most 80 bytes, cut on a character boundary.
std::string preview(std::string_view text) {
    constexpr std::size_t kLimit = 80;
    if (text.size() <= kLimit) {
        return std::string(text);
    }
    std::size_t cut = kLimit;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) {
        --cut;
    }
    return std::string(text.substr(0, cut)) + "…";
}

void addParagraphs(Node& parent, const std::vector<Paragraph>& paragraphs) {
    for (std::size_t i = 0; i < paragraphs.size(); ++i) {
        const Paragraph& p = paragraphs[i];
        auto node = makeNode("ozdf.paragraph", "paragraph " + std::to_string(i + 1), p.region);
        node->setValue(preview(p.text));
        node->addField("text", p.text, p.region);
        parent.appendChild(std::move(node));
    }
}

std::unique_ptr<Node> itemNode(const Item& item, std::size_t index) {
    std::string label = item.name ? *item.name : "item " + std::to_string(index + 1);
    auto node = makeNode("ozdf.item", preview(label), item.region);
    node->setValue(counted(item.paragraphs.size(), "paragraph"));
    if (item.name) {
        node->addField("name", *item.name, item.markerRegion);
    }
    addParagraphs(*node, item.paragraphs);
    return node;
}

std::unique_ptr<Node> partNode(const Item& item, std::size_t index) {
    auto node = makeNode("ozdf.part", item.partFile, item.partRegion);
    node->setValue(item.name ? preview(*item.name) : std::string());
    node->addField("index", item.partIndex);
    node->appendChild(itemNode(item, index));
    return node;
}

std::unique_ptr<Node> elementNode(const Element& element) {
    switch (element.kind) {
        case ElementKind::Comment: {
            auto node = makeNode("ozdf.comment", "COMMENT", element.region);
            node->setValue(preview(element.text.substr(0, element.text.find('\n'))));
            node->addField("text", element.text, element.region);
            return node;
        }
        case ElementKind::Block: {
            auto node = makeNode("ozdf.block", element.name, element.region);
            node->setValue(counted(element.paragraphs.size(), "paragraph"));
            node->addField("name", element.name, element.headerRegion);
            addParagraphs(*node, element.paragraphs);
            return node;
        }
        case ElementKind::List: {
            auto node = makeNode("ozdf.list", "[" + element.name + "]", element.region);
            node->setValue(counted(element.items.size(), "item"));
            node->addField("name", element.name, element.headerRegion);
            for (std::size_t i = 0; i < element.items.size(); ++i) {
                node->appendChild(itemNode(element.items[i], i));
            }
            return node;
        }
        case ElementKind::ExternalList: {
            auto node =
                makeNode("ozdf.external_list", "[[" + element.name + "]]", element.region, false);
            node->setValue(counted(element.items.size(), "part"));
            node->addField("name", element.name, element.headerRegion);
            node->addField("part file key", partFileKey(element.writtenName));
            for (std::size_t i = 0; i < element.items.size(); ++i) {
                node->appendChild(partNode(element.items[i], i));
            }
            return node;
        }
    }
    return makeNode("ozdf.block", element.name, element.region);
}

Status statusOf(const std::vector<Diagnostic>& diagnostics) {
    Status status = Status::Ok;
    for (const Diagnostic& d : diagnostics) {
        status = worse(status, d.severity == Severity::Error     ? Status::Error
                               : d.severity == Severity::Warning ? Status::Warning
                                                                 : Status::Info);
    }
    return status;
}

// A corpus listed at open: each document is read when the tree first shows it.
class ListedCorpusNode final : public Node {
public:
    explicit ListedCorpusNode(std::shared_ptr<const ListedCorpus> corpus)
        : Node("ozdf.corpus", corpus->path().filename().string()), corpus_(std::move(corpus)) {
        setValue(counted(corpus_->size(), "document"));
        setStatus(statusOf(corpus_->listing().diagnostics));
    }

protected:
    bool hasLazyChildren() const override { return corpus_->size() > 0; }
    std::uint64_t lazyChildCount() const override { return corpus_->size(); }
    bool childrenSortedByOffset() const override { return false; }
    // A file's bytes lie only under the document that read it: a lookup by offset builds one
    // child, not 100,000.
    bool childMayCover(std::uint64_t index, const ByteSource* source) const override {
        return source == nullptr || corpus_->documentHolding(source) == index;
    }
    std::unique_ptr<Node> makeChild(std::uint64_t index) const override {
        try {
            return buildDocumentNode(*corpus_->document(index));
        } catch (const SourceError& e) {
            // Unreadable (permissions, descriptors): shown, never thrown into the view.
            auto node = makeNode("ozdf.document", corpus_->filename(index), {}, false);
            node->setValue(e.what());
            node->setStatus(Status::Error);
            return node;
        }
    }

private:
    std::shared_ptr<const ListedCorpus> corpus_;
};

}  // namespace

std::unique_ptr<Node> buildDocumentNode(const Document& document) {
    const ByteSource* main = document.mainSource();
    const Region whole = main != nullptr ? Region{main, 0, main->size()} : Region{};
    auto node = makeNode("ozdf.document", document.filename, whole, !document.isDirectory);
    node->setValue(std::string(document.isDirectory ? "directory document, " : "") +
                   counted(document.elements.size(), "element"));
    node->setStatus(statusOf(document.diagnostics));
    for (const Element& element : document.elements) {
        node->appendChild(elementNode(element));
    }
    return node;
}

std::unique_ptr<Node> buildCorpusNode(const Corpus& corpus) {
    auto node = makeNode("ozdf.corpus", corpus.path.filename().string(), {}, false);
    node->setValue(counted(corpus.documents.size(), "document"));
    node->setStatus(statusOf(corpus.diagnostics));
    for (const Document& document : corpus.documents) {
        node->appendChild(buildDocumentNode(document));
    }
    return node;
}

}  // namespace strata::ozdf

namespace strata::ozdf {

std::unique_ptr<Node> buildListedCorpusNode(std::shared_ptr<const ListedCorpus> corpus) {
    return std::make_unique<ListedCorpusNode>(std::move(corpus));
}

}  // namespace strata::ozdf
