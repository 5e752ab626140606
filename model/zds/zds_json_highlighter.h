// Colours JSON text in the document editor: keys, strings, numbers, literals, punctuation,
// and the position of a syntax error.
#pragma once

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace strata::model {

class ZdsJsonHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit ZdsJsonHighlighter(QTextDocument* document);

    // Underlines the character at a 1-based line and column (0 clears it).
    void setErrorAt(int line, int column);

    // The format the highlighter gives each kind of token (tests look at them).
    QTextCharFormat keyFormat() const { return key_; }
    QTextCharFormat stringFormat() const { return string_; }
    QTextCharFormat numberFormat() const { return number_; }
    QTextCharFormat literalFormat() const { return literal_; }

protected:
    void highlightBlock(const QString& text) override;

private:
    QTextCharFormat key_, string_, number_, literal_, punctuation_, error_;
    int errorLine_ = 0;
    int errorColumn_ = 0;
};

}  // namespace strata::model
