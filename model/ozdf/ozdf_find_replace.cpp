#include "ozdf_find_replace.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "formats/ozdf/ozdf_edit.h"
#include "formats/ozdf/ozdf_text.h"
#include "model/core/counted_text.h"
#include "model/ozdf/ozdf_commands.h"

namespace strata::model {

namespace {

struct Matcher {
    const OzdfFindQuery& query;
    QRegularExpression regex;
    // A case-sensitive plain search looks for these UTF-8 bytes first: most paragraphs do not
    // hold them and are never converted to UTF-16.
    std::string needle;

    bool mayMatch(const std::string& text) const {
        return needle.empty() || text.find(needle) != std::string::npos;
    }

    // The replaced text and the number of matches (0: unchanged).
    std::pair<QString, int> apply(const QString& text) const {
        if (query.regex) {
            int count = 0;
            for (auto it = regex.globalMatch(text); it.hasNext(); it.next()) {
                ++count;
            }
            if (count == 0) {
                return {text, 0};
            }
            QString out = text;
            out.replace(regex, query.replacement);
            return {out, count};
        }
        const Qt::CaseSensitivity cs =
            query.caseSensitive ? Qt::CaseSensitive : Qt::CaseInsensitive;
        const int count = static_cast<int>(text.count(query.pattern, cs));
        if (count == 0) {
            return {text, 0};
        }
        QString out = text;
        out.replace(query.pattern, query.replacement, cs);
        return {out, count};
    }
};

QString regexReplacement(const QString& replacement) {
    // QString::replace with a regex takes \1 for groups; accept $1 as well.
    QString out;
    for (qsizetype i = 0; i < replacement.size(); ++i) {
        const bool group =
            replacement[i] == u'$' && i + 1 < replacement.size() && replacement[i + 1].isDigit();
        out += group ? QChar(u'\\') : replacement[i];
    }
    return out;
}

void scanParagraphs(const std::vector<ozdf::Paragraph>& paragraphs, const Matcher& matcher,
                    OzdfChange where, std::vector<OzdfChange>& out) {
    for (std::size_t p = 0; p < paragraphs.size(); ++p) {
        if (!matcher.mayMatch(paragraphs[p].text)) {
            continue;
        }
        const QString before = QString::fromStdString(paragraphs[p].text);
        auto [after, count] = matcher.apply(before);
        if (count == 0 || after == before) {
            continue;
        }
        OzdfChange change = where;
        change.paragraph = p;
        change.before = before;
        change.matches = count;
        try {
            const std::vector<std::string> texts = ozdf::normaliseText(after.toStdString());
            QStringList joined;
            for (const std::string& t : texts) {
                joined << QString::fromStdString(t);
            }
            change.after = joined.join(QStringLiteral("\n\n"));
            if (texts.empty()) {
                change.problem = QObject::tr("removes the paragraph");
            }
        } catch (const std::exception& e) {
            change.after = after;
            change.problem = QString::fromStdString(e.what());
            change.selected = false;
            change.applicable = false;
        }
        out.push_back(std::move(change));
    }
}

}  // namespace

std::vector<OzdfChange> findOzdfChanges(const ozdf::Corpus& corpus, const OzdfFindQuery& query,
                                        const CancelToken* cancel,
                                        const ProgressCallback& progress) {
    if (query.pattern.isEmpty()) {
        throw std::invalid_argument("nothing to find");
    }
    OzdfFindQuery q = query;
    Matcher matcher{q, {}, {}};
    if (!q.regex && q.caseSensitive) {
        matcher.needle = q.pattern.toStdString();
    }
    if (q.regex) {
        q.replacement = regexReplacement(q.replacement);
        matcher.regex = QRegularExpression(
            q.pattern, q.caseSensitive ? QRegularExpression::NoPatternOption
                                       : QRegularExpression::CaseInsensitiveOption);
        if (!matcher.regex.isValid()) {
            throw std::invalid_argument("invalid regular expression: " +
                                        matcher.regex.errorString().toStdString());
        }
    }
    QStringList scope;
    for (const QString& name : q.blockNames) {
        if (!name.trimmed().isEmpty()) {
            scope << QString::fromStdString(ozdf::upperCase(name.trimmed().toStdString()));
        }
    }
    std::vector<OzdfChange> out;
    const std::size_t total = corpus.documents.size();
    for (std::size_t d = 0; d < total; ++d) {
        if (cancel != nullptr && cancel->cancelled()) {
            break;
        }
        if (progress) {
            progress(static_cast<double>(d) / static_cast<double>(std::max<std::size_t>(total, 1)),
                     corpus.documents[d].filename);
        }
        const ozdf::Document& document = corpus.documents[d];
        for (std::size_t e = 0; e < document.elements.size(); ++e) {
            const ozdf::Element& element = document.elements[e];
            if (!scope.isEmpty() && !scope.contains(QString::fromStdString(element.name))) {
                continue;
            }
            OzdfChange where;
            where.document = static_cast<int>(d);
            where.element = e;
            scanParagraphs(element.paragraphs, matcher, where, out);
            for (std::size_t i = 0; i < element.items.size(); ++i) {
                where.item = i;
                scanParagraphs(element.items[i].paragraphs, matcher, where, out);
            }
        }
    }
    if (progress) {
        progress(1.0, std::to_string(out.size()) + " changes");
    }
    return out;
}

OzdfFindJob* startOzdfFind(JobRunner& runner, const OzdfSession& session,
                           const OzdfFindQuery& query) {
    auto* job = new OzdfFindJob(QObject::tr("Find in %1").arg(session.openedPath()));
    auto snapshot = std::make_shared<const ozdf::Corpus>(session.corpus());
    for (int i = 0; i < session.documentCount(); ++i) {
        job->revisions.push_back(session.revision(i));
    }
    QPointer<OzdfFindJob> target(job);
    runner.start(job, [snapshot, query, target](JobContext& context) {
        try {
            auto changes = std::make_shared<std::vector<OzdfChange>>(findOzdfChanges(
                *snapshot, query, &context.cancelToken(), context.progressCallback()));
            context.post([target, changes] {
                if (target) {
                    target->changes = std::move(*changes);
                }
            });
        } catch (const std::exception& e) {
            context.fail(QString::fromStdString(e.what()));
        }
    });
    return job;
}

bool applyOzdfChanges(QUndoStack& stack, OzdfSession& session,
                      const std::vector<OzdfChange>& changes, const std::vector<quint64>& revisions,
                      QString* error) {
    std::map<int, std::vector<const OzdfChange*>> byDocument;
    for (const OzdfChange& change : changes) {
        if (change.selected && change.applicable) {
            byDocument[change.document].push_back(&change);
        }
    }
    std::vector<OzdfDocumentsCommand::Change> edits;
    for (auto& [index, list] : byDocument) {
        if (index >= session.documentCount() ||
            static_cast<std::size_t>(index) >= revisions.size() ||
            session.revision(index) != revisions[static_cast<std::size_t>(index)]) {
            if (error != nullptr) {
                *error = QObject::tr("the corpus changed since the search; search again");
            }
            return false;
        }
        ozdf::Document after = session.document(index);
        // Last paragraph first, so a change that splits or removes one keeps the others' places.
        std::sort(list.begin(), list.end(), [](const OzdfChange* a, const OzdfChange* b) {
            return std::tie(a->element, a->item, a->paragraph) >
                   std::tie(b->element, b->item, b->paragraph);
        });
        try {
            for (const OzdfChange* c : list) {
                ozdf::setParagraphText(after, {c->element, c->item}, c->paragraph,
                                       c->after.toStdString());
            }
        } catch (const std::exception& e) {
            if (error != nullptr) {
                *error = QString::fromStdString(e.what());
            }
            return false;
        }
        edits.push_back({index, session.document(index), std::move(after)});
    }
    if (edits.empty()) {
        if (error != nullptr) {
            *error = QObject::tr("no change selected");
        }
        return false;
    }
    stack.push(new OzdfDocumentsCommand(
        session, std::move(edits),
        QObject::tr("Replace in %1").arg(counted(byDocument.size(), QObject::tr("document")))));
    return true;
}

}  // namespace strata::model
