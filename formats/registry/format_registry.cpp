#include "format_registry.h"

#include <stdexcept>

namespace strata {

void FormatRegistry::add(std::unique_ptr<FormatHandler> handler) {
    handlers_.push_back(std::move(handler));
}

namespace {

Detection bestDetection(const std::vector<std::unique_ptr<FormatHandler>>& handlers,
                        const ProbeInput& input) {
    Detection best{kRawBinaryFormat, 0, input.isDirectory ? "folder" : "raw binary file"};
    for (const auto& handler : handlers) {
        const std::optional<Detection> detection = handler->probe(input);
        if (detection && detection->confidence > best.confidence) {
            best = *detection;
        }
    }
    return best;
}

}  // namespace

Detection FormatRegistry::detect(const std::filesystem::path& path) const {
    return bestDetection(handlers_, ProbeInput::fromPath(path));
}

Detection FormatRegistry::detect(const ByteSourcePtr& source) const {
    return bestDetection(handlers_, ProbeInput::fromSource(source));
}

const FormatHandler& FormatRegistry::handler(FormatId id) const {
    for (const auto& handler : handlers_) {
        if (handler->id() == id) {
            return *handler;
        }
    }
    throw std::out_of_range("no handler registered for " + std::string(formatName(id)));
}

std::vector<const FormatHandler*> FormatRegistry::handlers() const {
    std::vector<const FormatHandler*> out;
    for (const auto& handler : handlers_) {
        out.push_back(handler.get());
    }
    return out;
}

std::unique_ptr<OpenedDocument> FormatRegistry::open(const std::filesystem::path& path) const {
    const Detection detection = detect(path);
    return handler(detection.format).open(path, detection);
}

std::unique_ptr<OpenedDocument> FormatRegistry::open(const ByteSourcePtr& source) const {
    const Detection detection = detect(source);
    return handler(detection.format).openSource(source, detection);
}

Detection FormatRegistry::detect(const FileTreePtr& tree, const Location& location) const {
    if (!tree->remote()) {
        return detect(location.localPath());
    }
    return bestDetection(handlers_, ProbeInput::fromTree(tree, location));
}

std::unique_ptr<OpenedDocument> FormatRegistry::open(const FileTreePtr& tree,
                                                     const Location& location) const {
    if (!tree->remote()) {
        return open(location.localPath());
    }
    const ProbeInput input = ProbeInput::fromTree(tree, location);
    const Detection detection = bestDetection(handlers_, input);
    std::unique_ptr<OpenedDocument> document = handler(detection.format).openTree(input, detection);
    if (document) {
        document->tree = tree;
    }
    return document;
}

Detection FormatRegistry::detect(const ProbeInput& input) const {
    return bestDetection(handlers_, input);
}

std::unique_ptr<OpenedDocument> FormatRegistry::open(const ProbeInput& input,
                                                     const Detection& detection) const {
    const FormatHandler& chosen = handler(detection.format);
    if (!input.tree || !input.tree->remote()) {
        return chosen.open(input.path, detection);
    }
    std::unique_ptr<OpenedDocument> document = chosen.openTree(input, detection);
    if (document) {
        document->tree = input.tree;
    }
    return document;
}

std::unique_ptr<Differ> FormatRegistry::makeDiffer(const OpenedDocument& a,
                                                   const OpenedDocument& b) const {
    if (a.format != b.format) {
        throw DiffError("cannot compare a " + std::string(formatName(a.format)) + " with a " +
                        std::string(formatName(b.format)) + ": both sides must be one format");
    }
    return handler(a.format).makeDiffer(a, b);
}

RepairReport FormatRegistry::repair(FormatId format, const std::filesystem::path& input,
                                    const std::filesystem::path& output,
                                    const RepairOptions& options) const {
    const FormatHandler& chosen = handler(format);
    if (!chosen.canRepair()) {
        throw RepairError(repairUnsupportedText(chosen.id()));
    }
    return chosen.repair(input, output, options);
}

std::string FormatRegistry::repairUnsupportedText(FormatId format) const {
    std::string repairable;
    for (const auto& h : handlers_) {
        if (h->canRepair()) {
            repairable += (repairable.empty() ? "" : ", ") + std::string(formatName(h->id()));
        }
    }
    return "repairing " + std::string(formatName(format)) + " is not supported yet (" + repairable +
           " can be repaired)";
}

}  // namespace strata
