#include "zds_json_highlighter.h"

#include <QTextDocument>

namespace strata::model {

namespace {

// Length of the string token starting at `from` (a '"'), up to and including its closing quote
// or the end of the line.
int stringLength(const QString& text, int from) {
    int i = from + 1;
    while (i < text.size()) {
        if (text[i] == '\\') {
            i += 2;
            continue;
        }
        if (text[i] == '"') {
            return i + 1 - from;
        }
        ++i;
    }
    return static_cast<int>(text.size()) - from;
}

bool followedByColon(const QString& text, int from) {
    for (int i = from; i < text.size(); ++i) {
        if (!text[i].isSpace()) {
            return text[i] == ':';
        }
    }
    return false;
}

}  // namespace

ZdsJsonHighlighter::ZdsJsonHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {
    key_.setForeground(QColor(0x1f, 0x5f, 0xa8));
    key_.setFontWeight(QFont::Bold);
    string_.setForeground(QColor(0x2e, 0x7d, 0x32));
    number_.setForeground(QColor(0xb2, 0x4a, 0x00));
    literal_.setForeground(QColor(0x8e, 0x24, 0xaa));
    punctuation_.setForeground(QColor(0x61, 0x61, 0x61));
    error_.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    error_.setUnderlineColor(Qt::red);
    error_.setBackground(QColor(0xff, 0xcd, 0xd2));
}

void ZdsJsonHighlighter::setErrorAt(int line, int column) {
    if (line == errorLine_ && column == errorColumn_) {
        return;
    }
    errorLine_ = line;
    errorColumn_ = column;
    rehighlight();
}

void ZdsJsonHighlighter::highlightBlock(const QString& text) {
    int i = 0;
    const int n = static_cast<int>(text.size());
    while (i < n) {
        const QChar c = text[i];
        if (c == '"') {
            const int len = stringLength(text, i);
            setFormat(i, len, followedByColon(text, i + len) ? key_ : string_);
            i += len;
        } else if (c == '-' || c.isDigit()) {
            int j = i + 1;
            while (j < n && (text[j].isDigit() || QStringLiteral(".eE+-").contains(text[j]))) {
                ++j;
            }
            setFormat(i, j - i, number_);
            i = j;
        } else if (c.isLetter()) {
            int j = i + 1;
            while (j < n && text[j].isLetter()) {
                ++j;
            }
            setFormat(i, j - i, literal_);
            i = j;
        } else {
            if (QStringLiteral("{}[]:,").contains(c)) {
                setFormat(i, 1, punctuation_);
            }
            ++i;
        }
    }
    if (errorLine_ > 0 && currentBlock().blockNumber() == errorLine_ - 1) {
        const int at = std::clamp(errorColumn_ - 1, 0, std::max(0, n - 1));
        QTextCharFormat f = format(at);
        f.merge(error_);
        setFormat(at, std::max(1, std::min(1, n - at)), f);
    }
}

}  // namespace strata::model
