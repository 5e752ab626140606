#include "scan_result.h"

namespace strata::scan {

std::string_view verdictName(Verdict verdict) {
    switch (verdict) {
        case Verdict::Valid:
            return "valid";
        case Verdict::Warnings:
            return "warnings";
        case Verdict::Damaged:
            return "damaged";
        case Verdict::Unreadable:
            return "unreadable";
        case Verdict::UnknownFormat:
            return "unknown-format";
    }
    return "unknown-format";
}

std::optional<Verdict> parseVerdict(std::string_view name) {
    for (const Verdict verdict : kAllVerdicts) {
        if (verdictName(verdict) == name) {
            return verdict;
        }
    }
    return std::nullopt;
}

std::ostream& operator<<(std::ostream& out, Verdict verdict) {
    return out << verdictName(verdict);
}

bool isProblem(Verdict verdict) {
    return verdict == Verdict::Damaged || verdict == Verdict::Unreadable;
}

}  // namespace strata::scan
