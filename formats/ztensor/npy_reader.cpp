#include "npy_reader.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <optional>

#include "../common/bounds.h"
#include "../common/zip_member_source.h"

namespace strata::ztensor {

namespace {

[[noreturn]] void fail(const ByteSource& source, const std::string& message) {
    throw ZtImportError(source.name() + ": " + message);
}

// A value of the header dict: a string, a bool, or a tuple of integers.
struct PyValue {
    enum class Kind { String, Bool, Tuple, Other } kind = Kind::Other;
    std::string text;
    bool flag = false;
    std::vector<std::uint64_t> items;
};

// Parses the restricted Python literal NumPy writes: {'key': value, ...}.
class PyDictParser {
public:
    PyDictParser(std::string_view text, const ByteSource& source) : s_(text), source_(source) {}

    std::map<std::string, PyValue> parse() {
        std::map<std::string, PyValue> out;
        expect('{');
        skipSpace();
        while (peek() != '}') {
            std::string key = parseString();
            expect(':');
            PyValue value = parseValue();
            if (!out.emplace(std::move(key), std::move(value)).second) {
                error("a key appears twice in the header");
            }
            skipSpace();
            if (peek() == ',') {
                ++pos_;
                skipSpace();
            } else if (peek() != '}') {
                error("expected ',' or '}' in the header");
            }
        }
        return out;
    }

private:
    [[noreturn]] void error(const std::string& message) {
        fail(source_, message + " (at header character " + std::to_string(pos_) + ")");
    }
    char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
    void skipSpace() {
        while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) {
            ++pos_;
        }
    }
    void expect(char c) {
        skipSpace();
        if (peek() != c) {
            error(std::string("expected '") + c + "' in the header");
        }
        ++pos_;
    }
    std::string parseString() {
        skipSpace();
        const char quote = peek();
        if (quote != '\'' && quote != '"') {
            error("expected a quoted string in the header");
        }
        const auto end = s_.find(quote, pos_ + 1);
        if (end == std::string_view::npos) {
            error("unterminated string in the header");
        }
        std::string out(s_.substr(pos_ + 1, end - pos_ - 1));
        pos_ = end + 1;
        return out;
    }
    std::uint64_t parseInteger() {
        skipSpace();
        std::uint64_t value = 0;
        const std::size_t start = pos_;
        while (std::isdigit(static_cast<unsigned char>(peek()))) {
            const auto times = checkedMul(value, 10);
            const auto sum =
                times ? checkedAdd(*times, static_cast<std::uint64_t>(peek() - '0')) : std::nullopt;
            if (!sum) {
                error("a shape entry is too large");
            }
            value = *sum;
            ++pos_;
        }
        if (pos_ == start) {
            error("expected a non-negative integer in the shape");
        }
        if (peek() == 'L') {  // Python 2 long suffix
            ++pos_;
        }
        return value;
    }
    PyValue parseValue() {
        skipSpace();
        PyValue value;
        if (peek() == '\'' || peek() == '"') {
            value.kind = PyValue::Kind::String;
            value.text = parseString();
        } else if (s_.substr(pos_, 4) == "True") {
            value.kind = PyValue::Kind::Bool;
            value.flag = true;
            pos_ += 4;
        } else if (s_.substr(pos_, 5) == "False") {
            value.kind = PyValue::Kind::Bool;
            pos_ += 5;
        } else if (peek() == '(') {
            value.kind = PyValue::Kind::Tuple;
            ++pos_;
            skipSpace();
            while (peek() != ')') {
                if (value.items.size() >= 64) {
                    error("the shape has more than 64 dimensions");
                }
                value.items.push_back(parseInteger());
                skipSpace();
                if (peek() == ',') {
                    ++pos_;
                    skipSpace();
                } else if (peek() != ')') {
                    error("expected ',' or ')' in the shape");
                }
            }
            ++pos_;
        } else {
            error("unsupported value in the header (structured dtypes are not supported)");
        }
        return value;
    }

    std::string_view s_;
    const ByteSource& source_;
    std::size_t pos_ = 0;
};

struct DescrInfo {
    ZtDType dtype;
    bool bigEndian;
};

std::optional<DescrInfo> parseDescr(const std::string& descr) {
    if (descr.size() < 2) {
        return std::nullopt;
    }
    const char order = descr[0];
    if (order != '<' && order != '>' && order != '=' && order != '|') {
        return std::nullopt;
    }
    static const std::map<std::string, ZtDType> kTypes = {
        {"f8", ZtDType::Float64}, {"f4", ZtDType::Float32}, {"f2", ZtDType::Float16},
        {"i8", ZtDType::Int64},   {"i4", ZtDType::Int32},   {"i2", ZtDType::Int16},
        {"i1", ZtDType::Int8},    {"u8", ZtDType::UInt64},  {"u4", ZtDType::UInt32},
        {"u2", ZtDType::UInt16},  {"u1", ZtDType::UInt8},   {"b1", ZtDType::Bool},
    };
    const auto it = kTypes.find(descr.substr(1));
    if (it == kTypes.end()) {
        return std::nullopt;
    }
    // '|' is "not applicable": only right for one-byte types, as NumPy writes it.
    const unsigned size = ztDTypeSize(it->second);
    if (order == '|' && size != 1) {
        return std::nullopt;
    }
    return DescrInfo{it->second, order == '>' && size > 1};
}

ByteView ownedView(std::vector<std::uint8_t> bytes) {
    auto holder = std::make_shared<std::vector<std::uint8_t>>(std::move(bytes));
    return ByteView{{holder->data(), holder->size()}, holder};
}

// Little-endian, row-major copy of big-endian and/or column-major data.
std::vector<std::uint8_t> toLittleRowMajor(std::span<const std::uint8_t> in, const NpyHeader& h) {
    const unsigned size = ztDTypeSize(h.dtype);
    std::vector<std::uint8_t> out(in.size());
    const std::uint64_t count = in.size() / size;
    const std::size_t ndim = h.shape.size();
    // At least one slot each: GCC 12 at -O2 misreads the empty case as freeing a non-heap
    // pointer (-Wfree-nonheap-object).
    std::vector<std::uint64_t> index(std::max<std::size_t>(ndim, 1), 0);
    // Strides of the column-major input, in elements.
    std::vector<std::uint64_t> stride(std::max<std::size_t>(ndim, 1), 1);
    for (std::size_t d = 1; d < ndim; ++d) {
        stride[d] = stride[d - 1] * h.shape[d - 1];
    }
    for (std::uint64_t i = 0; i < count; ++i) {
        std::uint64_t from = i;
        if (h.fortranOrder) {
            from = 0;
            for (std::size_t d = 0; d < ndim; ++d) {
                from += index[d] * stride[d];
            }
            // Advance the row-major index (last dimension fastest).
            for (std::size_t d = ndim; d-- > 0;) {
                if (++index[d] < h.shape[d]) {
                    break;
                }
                index[d] = 0;
            }
        }
        const std::uint8_t* src = in.data() + from * size;
        std::uint8_t* dst = out.data() + i * size;
        if (h.bigEndian) {
            std::reverse_copy(src, src + size, dst);
        } else {
            std::copy(src, src + size, dst);
        }
    }
    return out;
}

// Sources that hand out bounded views (large DEFLATE'd .npz members) are copied piece by piece;
// memory grows with the bytes that really arrive, not with the size a header claims.
ByteView readInPieces(const ByteSource& source, std::uint64_t offset, std::uint64_t size) {
    constexpr std::uint64_t kPiece = 16ull << 20;
    std::vector<std::uint8_t> out;
    for (std::uint64_t done = 0; done < size;) {
        const ByteView piece = source.view(offset + done, std::min(kPiece, size - done));
        if (piece.empty()) {
            fail(source, "the array's data cannot be read (" + std::to_string(done) + " of " +
                             std::to_string(size) + " bytes)");
        }
        out.insert(out.end(), piece.bytes.begin(), piece.bytes.end());
        done += piece.size();
    }
    return ownedView(std::move(out));
}

}  // namespace

NpyHeader parseNpyHeader(const ByteSource& source) {
    NpyHeader h;
    std::uint8_t prefix[12] = {};
    const std::size_t got = source.read(0, prefix);
    if (got < 10 || std::string_view(reinterpret_cast<const char*>(prefix), 6) != kNpyMagic) {
        fail(source, "not a NumPy .npy file (no \\x93NUMPY magic)");
    }
    h.major = prefix[6];
    h.minor = prefix[7];
    std::uint64_t headerLength = 0;
    std::uint64_t headerStart = 0;
    if (h.major == 1) {
        headerLength = prefix[8] | (static_cast<std::uint64_t>(prefix[9]) << 8);
        headerStart = 10;
    } else if (h.major == 2 || h.major == 3) {
        if (got < 12) {
            fail(source, "the header length is cut off");
        }
        for (int i = 0; i < 4; ++i) {
            headerLength |= static_cast<std::uint64_t>(prefix[8 + i]) << (8 * i);
        }
        headerStart = 12;
    } else {
        fail(source,
             "unsupported .npy version " + std::to_string(h.major) + "." + std::to_string(h.minor));
    }
    if (headerLength > kNpyMaxHeader || !rangeFits(headerStart, headerLength, source.size())) {
        fail(source,
             "the header length " + std::to_string(headerLength) + " does not fit in the file");
    }
    const ByteView header = source.view(headerStart, headerLength);
    const std::string_view text(reinterpret_cast<const char*>(header.data()), header.size());
    const auto dict = PyDictParser(text, source).parse();
    auto field = [&](const char* key, PyValue::Kind kind) -> const PyValue& {
        const auto it = dict.find(key);
        if (it == dict.end() || it->second.kind != kind) {
            fail(source, std::string("the header has no usable '") + key + "'");
        }
        return it->second;
    };
    h.descr = field("descr", PyValue::Kind::String).text;
    h.fortranOrder = field("fortran_order", PyValue::Kind::Bool).flag;
    h.shape = field("shape", PyValue::Kind::Tuple).items;
    if (dict.size() != 3) {
        fail(source, "the header has keys other than descr, fortran_order and shape");
    }
    const auto descr = parseDescr(h.descr);
    if (!descr) {
        fail(source, "dtype '" + h.descr + "' has no zTensor equivalent");
    }
    h.dtype = descr->dtype;
    h.bigEndian = descr->bigEndian;
    std::optional<std::uint64_t> bytes = ztDTypeSize(h.dtype);
    for (auto dim : h.shape) {
        bytes = bytes ? checkedMul(*bytes, dim) : std::nullopt;
    }
    h.dataOffset = headerStart + headerLength;
    if (!bytes || !rangeFits(h.dataOffset, *bytes, source.size())) {
        fail(source, "the array's data (dtype × shape) does not fit in the file");
    }
    h.dataSize = *bytes;
    return h;
}

ZtImportTensor readNpy(const ByteSourcePtr& source, std::string name) {
    const NpyHeader h = parseNpyHeader(*source);
    ByteView data = source->view(h.dataOffset, h.dataSize);
    if (data.size() != h.dataSize) {
        data = readInPieces(*source, h.dataOffset, h.dataSize);
    }
    if (!data.keepAlive) {
        data.keepAlive = source;  // a mapped file's views live as long as the source
    }
    const bool reorder = h.fortranOrder && h.shape.size() > 1;
    if (h.bigEndian || reorder) {
        NpyHeader plain = h;
        plain.fortranOrder = reorder;
        data = ownedView(toLittleRowMajor(data.bytes, plain));
    }
    return ZtImportTensor{std::move(name), h.dtype, h.shape, std::move(data)};
}

ZtImportSet readNpyFile(const std::filesystem::path& path) {
    ZtImportSet set;
    set.kind = "npy";
    set.tensors.push_back(readNpy(openMappedFile(path), path.stem().string()));
    return set;
}

ZtImportSet readNpzFile(const std::filesystem::path& path) {
    std::shared_ptr<ZipArchive> archive;
    try {
        archive = ZipArchive::open(path);
    } catch (const ZipError& e) {
        throw ZtImportError(path.string() + ": not a readable .npz (ZIP) archive: " + e.what());
    }
    ZtImportSet set;
    set.kind = "npz";
    for (const ZipMember& member : archive->members()) {
        constexpr std::string_view kSuffix = ".npy";
        if (member.isDirectory()) {
            continue;
        }
        if (member.name.size() <= kSuffix.size() || !member.name.ends_with(kSuffix)) {
            set.notes.push_back("skipped member '" + member.name + "' (not a .npy array)");
            continue;
        }
        // A later member with the same name wins, as with NumPy's own loader.
        if (archive->find(member.name) != &member) {
            continue;
        }
        const ByteSourcePtr source = archive->openMember(member);
        if (!source) {
            throw ZtImportError(path.string() + "!" + member.name +
                                ": the member is neither STORE'd nor DEFLATE'd, or damaged");
        }
        set.tensors.push_back(
            readNpy(source, member.name.substr(0, member.name.size() - kSuffix.size())));
    }
    return set;
}

}  // namespace strata::ztensor
