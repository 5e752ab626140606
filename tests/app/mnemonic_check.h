// Alt+letter reaches one thing: the mnemonics (&-letters) of a menu's entries, and of the
// buttons and labels of a window outside its menus, are checked for clashes.
#pragma once

#include <QAbstractButton>
#include <QAction>
#include <QHash>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QStringList>
#include <QWidget>

namespace strata::test {

// The letter after a single '&' ("Save a Local Cop&y…" → 'y'), or a null QChar.
inline QChar mnemonicOf(const QString& text) {
    for (int i = 0; i + 1 < text.size(); ++i) {
        if (text[i] != QLatin1Char('&')) {
            continue;
        }
        if (text[i + 1] == QLatin1Char('&')) {
            ++i;  // "&&" is a literal ampersand
            continue;
        }
        return text[i + 1].toLower();
    }
    return {};
}

// "File: 'c' on &Compare With… and &Close Tab" for each letter two texts share.
inline QStringList clashesAmong(const QString& where, const QStringList& texts) {
    QHash<QChar, QString> owner;
    QStringList clashes;
    for (const QString& text : texts) {
        const QChar letter = mnemonicOf(text);
        if (letter.isNull()) {
            continue;
        }
        if (owner.contains(letter)) {
            clashes << QStringLiteral("%1: '%2' on %3 and %4")
                           .arg(where, QString(letter), owner.value(letter), text);
        } else {
            owner.insert(letter, text);
        }
    }
    return clashes;
}

inline QStringList actionTexts(const QList<QAction*>& actions) {
    QStringList texts;
    for (const QAction* action : actions) {
        if (!action->isSeparator() && action->isVisible()) {
            texts << action->text();
        }
    }
    return texts;
}

// Every menu of `window` (its menu bar, each menu and submenu, context menus it owns), and the
// buttons and labelled fields shown in it.
inline QStringList mnemonicClashes(const QWidget& window) {
    QStringList clashes;
    for (const QMenuBar* bar : window.findChildren<QMenuBar*>()) {
        clashes << clashesAmong(QStringLiteral("menu bar"), actionTexts(bar->actions()));
    }
    for (const QMenu* menu : window.findChildren<QMenu*>()) {
        clashes << clashesAmong(menu->title().isEmpty() ? menu->objectName() : menu->title(),
                                actionTexts(menu->actions()));
    }
    // Outside menus, Alt+letter works across the whole window.
    QStringList texts;
    for (const QAbstractButton* button : window.findChildren<QAbstractButton*>()) {
        if (button->isVisibleTo(&window)) {
            texts << button->text();
        }
    }
    for (const QLabel* label : window.findChildren<QLabel*>()) {
        if (label->buddy() != nullptr && label->isVisibleTo(&window)) {
            texts << label->text();
        }
    }
    clashes << clashesAmong(
        window.windowTitle().isEmpty() ? QStringLiteral("window") : window.windowTitle(), texts);
    return clashes;
}

}  // namespace strata::test
