// The files of a ZDS repair's input whose bytes fail their checksum: in a `.zds`, the members
// whose CRC-32 does not match the archive's directory (or whose DEFLATE data cannot be
// inflated). A ZIP CRC covers a whole member, so which of its bytes changed is unknown: nothing
// of such a file goes into the output as recovered. The planner quarantines its documents (a
// data.jsonl's lines, a docs/ file), rebuilds a failing index.bin from the lines it can check,
// and writes manifest.json and zds.json afresh; the writer never copies such a file
// (ZdsWriteOptions::leaveOut).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "formats/common/repair.h"
#include "formats/common/zip_member_source.h"
#include "zds_reader.h"

namespace strata::zds {

struct ZdsUntrusted {
    // Dataset-relative path -> why it is not trusted ("fails its CRC-32 (...)").
    std::map<std::string, std::string> files;

    const std::string* why(const std::string& rel) const {
        const auto it = files.find(rel);
        return it == files.end() ? nullptr : &it->second;
    }
    std::set<std::string> paths() const;
};

// Adds the files and folders (as "path/") of `storage` whose paths are not UTF-8 text free of
// control characters: a damaged name, which an archive cannot even hold as a UTF-8 name.
// Nothing is copied under such a name.
void distrustDamagedNames(const ZdsStorage& storage, ZdsUntrusted& untrusted);

// Whether a path is UTF-8 text free of control characters.
bool zdsUsableName(std::string_view path);

// A path for a message: bytes that are not UTF-8 text as \xNN.
std::string zdsShownName(std::string_view path);

// "fails its CRC-32 (0x..., the archive records 0x...)".
std::string zdsCrcMismatch(std::uint32_t actual, std::uint32_t recorded);

// Streams every member readers use (the last of a repeated name) through its CRC-32, polling
// the cancel token between members. Earlier copies of a repeated name, which readers never see,
// are reported as actions; members whose name would leave the dataset (never copied) as losses,
// as the scan of a broken archive reports them.
ZdsUntrusted checkZdsArchiveMembers(const ZipArchive& archive, const RepairOptions& options,
                                    RepairReport& report);

}  // namespace strata::zds
