// How the ZDS documents table finds, shows and sorts a JSON value: a column names a member by
// JSON pointer (or a top-level key), a cell shows its value cut to a readable length, and rows
// sort by a key that orders values of different types consistently.
#pragma once

#include <QString>

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace strata::model {

using ordered_json = nlohmann::ordered_json;

// "/a/b" stays; a plain key becomes a pointer to that top-level member ("a/b" → "/a~1b").
std::string columnPointer(const QString& column);

// The member `pointer` names in `doc`, or nullptr (also for a malformed pointer).
const ordered_json* memberAt(const ordered_json& doc, const std::string& pointer);

// A string as it is, anything else as compact JSON; at most `maxChars` bytes, then "…".
std::string cellText(const ordered_json& value, std::size_t maxChars);

// Sort order: missing < null < false/true < numbers < strings < arrays and objects (as text).
struct JsonSortKey {
    int rank = 0;
    double number = 0;
    std::string text;
    bool operator<(const JsonSortKey& o) const {
        if (rank != o.rank) {
            return rank < o.rank;
        }
        if (rank == 3) {
            return number < o.number;
        }
        return text < o.text;
    }
};

// The key of a member (nullptr: missing).
JsonSortKey sortKeyOf(const ordered_json* value);

}  // namespace strata::model
