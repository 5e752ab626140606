#include "byte_search.h"

#include <QLocale>
#include <QPointer>

#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

#include "formats/common/bounds.h"

namespace strata::model {

namespace {

constexpr std::uint8_t kExact = 0xFF;
constexpr std::uint8_t kFoldCase = 0xDF;  // clears the ASCII lower-case bit

bool isAsciiLetter(char16_t c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int hexDigit(QChar c) {
    const char16_t u = c.unicode();
    if (u >= '0' && u <= '9') {
        return u - '0';
    }
    if (u >= 'a' && u <= 'f') {
        return u - 'a' + 10;
    }
    if (u >= 'A' && u <= 'F') {
        return u - 'A' + 10;
    }
    return -1;
}

bool parseHex(const QString& text, SearchPattern& out, QString* error) {
    // Nibbles in order; -1 is a wildcard nibble.
    std::vector<int> nibbles;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c.isSpace() || c == QLatin1Char(',')) {
            continue;
        }
        // "0x" prefixes ("0x4d 0x5a") are allowed at the start of a group.
        if (c == QLatin1Char('0') && i + 1 < text.size() &&
            (text[i + 1] == QLatin1Char('x') || text[i + 1] == QLatin1Char('X')) &&
            nibbles.size() % 2 == 0) {
            ++i;
            continue;
        }
        if (c == QLatin1Char('?')) {
            nibbles.push_back(-1);
            continue;
        }
        const int d = hexDigit(c);
        if (d < 0) {
            if (error != nullptr) {
                *error = QObject::tr("'%1' is not a hex digit").arg(c);
            }
            return false;
        }
        nibbles.push_back(d);
    }
    if (nibbles.size() % 2 != 0) {
        if (error != nullptr) {
            *error = QObject::tr("odd number of hex digits");
        }
        return false;
    }
    for (std::size_t i = 0; i < nibbles.size(); i += 2) {
        const int hi = nibbles[i];
        const int lo = nibbles[i + 1];
        const auto mask = std::uint8_t((hi < 0 ? 0 : 0xF0) | (lo < 0 ? 0 : 0x0F));
        const auto value = std::uint8_t(((hi < 0 ? 0 : hi) << 4) | (lo < 0 ? 0 : lo));
        out.values.append(value);
        out.masks.append(mask);
    }
    return true;
}

void appendByte(SearchPattern& out, std::uint8_t value, std::uint8_t mask) {
    out.values.append(std::uint8_t(value & mask));
    out.masks.append(mask);
}

void parseUtf8(const QString& text, bool fold, SearchPattern& out) {
    for (const char c : text.toUtf8()) {
        const auto b = std::uint8_t(c);
        appendByte(out, b, fold && isAsciiLetter(b) ? kFoldCase : kExact);
    }
}

void parseUtf16(const QString& text, bool fold, SearchPattern& out) {
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        appendByte(out, std::uint8_t(u & 0xFF), fold && isAsciiLetter(u) ? kFoldCase : kExact);
        appendByte(out, std::uint8_t(u >> 8), kExact);
    }
}

// Matches in data[0, startLimit) (a match may run past startLimit but not past size).
class ChunkMatcher {
public:
    explicit ChunkMatcher(const SearchPattern& pattern)
        : pattern_(pattern),
          exact_(pattern.isExact()),
          bytes_(pattern.values.begin(), pattern.values.end()),
          searcher_(bytes_.begin(), bytes_.end()) {
        for (int i = 0; i < pattern.size(); ++i) {
            if (pattern.masks[i] == kExact) {
                anchor_ = i;
                break;
            }
        }
    }

    // Calls onMatch(position) for each match start; stops early when it returns false.
    bool scan(const std::uint8_t* data, std::size_t size, std::size_t startLimit,
              const std::function<bool(std::size_t)>& onMatch) const {
        const std::size_t len = bytes_.size();
        if (size < len) {
            return true;
        }
        const std::size_t lastStart = std::min(startLimit, size - len + 1);  // exclusive
        if (exact_) {
            const std::uint8_t* end = data + std::min(size, lastStart + len - 1);
            for (const std::uint8_t* it = data; it < end;) {
                it = std::search(it, end, searcher_);
                if (it == end) {
                    break;
                }
                if (!onMatch(std::size_t(it - data))) {
                    return false;
                }
                ++it;
            }
            return true;
        }
        if (anchor_ >= 0) {
            const auto a = std::size_t(anchor_);
            const std::uint8_t needle = bytes_[a];
            std::size_t from = 0;
            while (from < lastStart) {
                const void* hit = std::memchr(data + from + a, needle, lastStart - from);
                if (hit == nullptr) {
                    break;
                }
                const std::size_t start =
                    std::size_t(static_cast<const std::uint8_t*>(hit) - data) - a;
                if (pattern_.matches(data + start) && !onMatch(start)) {
                    return false;
                }
                from = start + 1;
            }
            return true;
        }
        for (std::size_t start = 0; start < lastStart; ++start) {
            if (pattern_.matches(data + start) && !onMatch(start)) {
                return false;
            }
        }
        return true;
    }

private:
    const SearchPattern& pattern_;
    bool exact_;
    std::vector<std::uint8_t> bytes_;
    std::boyer_moore_horspool_searcher<std::vector<std::uint8_t>::const_iterator> searcher_;
    int anchor_ = -1;
};

QString sizeText(quint64 bytes) {
    return QLocale::system().formattedDataSize(qint64(std::min<quint64>(bytes, INT64_MAX)), 1,
                                               QLocale::DataSizeIecFormat);
}

}  // namespace

// Gives the search worker's posted calls access to ByteSearchJob's result fields.
struct ByteSearchAccess {
    static void add(ByteSearchJob* job, quint64 offset) {
        job->results_.append(offset);
        emit job->found(offset);
    }
    static void setTruncated(ByteSearchJob* job) { job->truncated_ = true; }
    static void setPatternLength(ByteSearchJob* job, int n) { job->patternLength_ = n; }
};

bool SearchPattern::isExact() const {
    return std::all_of(masks.begin(), masks.end(), [](std::uint8_t m) { return m == kExact; });
}

bool SearchPattern::matches(const std::uint8_t* bytes) const {
    for (int i = 0; i < size(); ++i) {
        if ((bytes[i] & masks[i]) != values[i]) {
            return false;
        }
    }
    return true;
}

std::optional<SearchPattern> SearchPattern::parse(const QString& text, Mode mode,
                                                  bool caseInsensitive, QString* error) {
    SearchPattern pattern;
    pattern.text = text;
    switch (mode) {
        case Mode::Hex:
            if (!parseHex(text, pattern, error)) {
                return std::nullopt;
            }
            break;
        case Mode::Utf8:
            parseUtf8(text, caseInsensitive, pattern);
            break;
        case Mode::Utf16Le:
            parseUtf16(text, caseInsensitive, pattern);
            break;
    }
    if (pattern.isEmpty()) {
        if (error != nullptr) {
            *error = QObject::tr("empty search pattern");
        }
        return std::nullopt;
    }
    if (std::all_of(pattern.masks.begin(), pattern.masks.end(),
                    [](std::uint8_t m) { return m == 0; })) {
        if (error != nullptr) {
            *error = QObject::tr("the pattern is only wildcards");
        }
        return std::nullopt;
    }
    return pattern;
}

bool scanForPattern(const ByteSource& source, const ByteOverlay::EditMap& edits,
                    const SearchPattern& pattern, std::uint64_t begin, std::uint64_t end,
                    const strata::CancelToken* cancel,
                    const std::function<bool(std::uint64_t offset)>& onMatch,
                    const std::function<void(std::uint64_t scanned)>& onProgress) {
    if (pattern.isEmpty()) {
        return true;
    }
    const std::uint64_t size = source.size();
    end = std::min(end, size);
    const auto len = std::uint64_t(pattern.size());
    const ChunkMatcher matcher(pattern);
    std::vector<std::uint8_t> edited;
    for (std::uint64_t pos = begin; pos < end;) {
        if (cancel != nullptr && cancel->cancelled()) {
            return false;
        }
        const std::uint64_t startLimit = std::min(end - pos, ByteSearchOptions::kChunkSize);
        // The chunk plus the overlap a match starting near its end needs.
        const std::uint64_t want = clippedLength(pos, startLimit + len - 1, size);
        const ByteView view = source.view(pos, want);
        const std::uint8_t* data = view.data();
        const std::uint64_t viewEnd = pos + view.size();
        const auto firstEdit = edits.lower_bound(pos);
        if (firstEdit != edits.end() && firstEdit->first < viewEnd) {
            edited.assign(view.bytes.begin(), view.bytes.end());
            applyEdits(edits, pos, edited);
            data = edited.data();
        }
        bool stop = false;
        matcher.scan(data, view.size(), std::size_t(startLimit), [&](std::size_t at) {
            stop = !onMatch(pos + at);
            return !stop;
        });
        if (stop) {
            return true;
        }
        if (view.size() < want) {
            break;  // the source ended early (a truncated archive member)
        }
        pos += startLimit;
        if (onProgress) {
            onProgress(pos - begin);
        }
    }
    return !(cancel != nullptr && cancel->cancelled());
}

namespace {

// One search on a worker: the ranges to scan in order, progress over all of them, and the
// results posted to the job as they are found.
class SearchRun {
public:
    SearchRun(JobContext& context, ByteSearchJob* job, const ByteSource& source,
              const ByteOverlay::EditMap& edits, const SearchPattern& pattern,
              const ByteSearchOptions& options)
        : context_(context),
          job_(job),
          source_(source),
          edits_(edits),
          pattern_(pattern),
          options_(options),
          size_(source.size()),
          from_(std::min<std::uint64_t>(options.from, source.size())) {}

    void run() {
        context_.setProgress(0.0, QObject::tr("searching"));
        if (options_.findAll) {
            forward(0, size_);
        } else if (options_.backward) {
            // Matches starting before `from`, nearest first; then (wrapping) from the end.
            if (!backward(0, from_) && options_.wrap && from_ < size_) {
                backward(from_, size_);
            }
        } else if (!forward(from_, size_) && options_.wrap && from_ > 0) {
            forward(0, from_);
        }
    }

private:
    std::uint64_t total() const {
        if (options_.findAll || options_.wrap) {
            return size_;
        }
        return options_.backward ? from_ : size_ - from_;
    }

    void report(std::uint64_t scannedNow) {
        const std::uint64_t at = done_ + scannedNow;
        const std::uint64_t all = total();
        context_.setProgress(
            all == 0 ? 1.0 : double(at) / double(all),
            QObject::tr("%1 of %2, %n found", nullptr, count_).arg(sizeText(at), sizeText(all)));
    }

    void post(std::uint64_t offset) {
        ++count_;
        ByteSearchJob* job = job_;
        context_.post([job, offset] { ByteSearchAccess::add(job, offset); });
    }

    // Scans [begin, end) forwards; true when the search is over (found enough, or cancelled).
    bool forward(std::uint64_t begin, std::uint64_t end) {
        const int cap = options_.findAll ? std::max(1, options_.maxResults) : 1;
        bool full = false;
        const bool completed = scanForPattern(
            source_, edits_, pattern_, begin, end, &context_.cancelToken(),
            [&](std::uint64_t offset) {
                if (count_ >= cap) {
                    // One more match than the cap: the result list is truncated.
                    ByteSearchJob* job = job_;
                    context_.post([job] { ByteSearchAccess::setTruncated(job); });
                    full = true;
                    return false;
                }
                post(offset);
                full = !options_.findAll;
                return !full;
            },
            [&](std::uint64_t scanned) { report(scanned); });
        done_ += end - begin;
        return full || !completed;
    }

    // Scans [begin, end) backwards chunk by chunk for the last match starting in it.
    bool backward(std::uint64_t begin, std::uint64_t end) {
        std::uint64_t chunkEnd = end;
        while (chunkEnd > begin) {
            const std::uint64_t chunkBegin =
                chunkEnd - std::min(chunkEnd - begin, ByteSearchOptions::kChunkSize);
            std::optional<std::uint64_t> last;
            if (!scanForPattern(source_, edits_, pattern_, chunkBegin, chunkEnd,
                                &context_.cancelToken(), [&](std::uint64_t offset) {
                                    last = offset;
                                    return true;
                                })) {
                return true;  // cancelled
            }
            done_ += chunkEnd - chunkBegin;
            report(0);
            if (last) {
                post(*last);
                return true;
            }
            chunkEnd = chunkBegin;
        }
        return false;
    }

    JobContext& context_;
    ByteSearchJob* job_;
    const ByteSource& source_;
    const ByteOverlay::EditMap& edits_;
    const SearchPattern& pattern_;
    const ByteSearchOptions& options_;
    std::uint64_t size_;
    std::uint64_t from_;
    std::uint64_t done_ = 0;
    int count_ = 0;
};

}  // namespace

ByteSearchJob* startByteSearch(JobRunner& runner, const ByteOverlay* file, SearchPattern pattern,
                               const ByteSearchOptions& options) {
    auto* job = new ByteSearchJob(QObject::tr("Find %1").arg(pattern.text));
    ByteSearchAccess::setPatternLength(job, pattern.size());
    ByteSourcePtr source = file->sourcePtr();
    ByteOverlay::EditMap edits = file->edits();
    runner.start(job, [source, edits = std::move(edits), pattern = std::move(pattern), options,
                       job](JobContext& context) {
        SearchRun(context, job, *source, edits, pattern, options).run();
    });
    return job;
}

ByteSearchJob* startByteSearch(JobRunner& runner, const ByteOverlay* file, SearchPattern pattern,
                               quint64 from, bool wrap) {
    ByteSearchOptions options;
    options.from = from;
    options.wrap = wrap;
    return startByteSearch(runner, file, std::move(pattern), options);
}

}  // namespace strata::model
