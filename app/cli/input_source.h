// Where strata-cli's read commands get their bytes: a local path is memory-mapped, an
// http://, https:// or s3:// URL is read through one remote session shared by the whole run
// (block cache, optional --cache-dir, -v printing each request on stderr).
#pragma once

#include <string>

#include "formats/common/byte_source.h"
#include "formats/common/file_tree.h"
#include "formats/registry/format_registry.h"

namespace CLI {
class App;
}

namespace strata::cli {

// Adds --cache-dir DIR, -v/--verbose, --timeout SECONDS, --ca-file FILE and the S3 options
// (--endpoint-url, --profile, --no-sign-request) to the top-level app; accepted before or after
// the subcommand.
void registerRemoteOptions(CLI::App& app);

// Every option naming an input passes through this (CLI11's transform): a URL becomes the text
// of its location (formats/remote/remote_url.h: the path percent-decoded, no password, no query
// string; those go to the run's session for its requests), so a command shows it, and the
// names it finds under it, as it shows a local path, and never shows a secret. Anything else is
// kept as it is.
std::string inputArgument(const std::string& text);

// True for http://, https:// and s3:// (case-insensitive).
bool isUrl(const std::string& text);

// Opens a file: a URL through the run's remote session, anything else as a local path.
// Throws SourceError naming the file or URL (a refused scheme such as ftp:// included).
ByteSourcePtr openInput(const std::string& text);

// The tree a URL's file or folder is read through (the run's remote session); the local file
// system for anything else.
FileTreePtr inputTree(const std::string& text);

// The registry's detect and open for a path or folder, or for a URL through openInput.
Detection detectInput(const std::string& text);
std::unique_ptr<OpenedDocument> openDocument(const std::string& text);

}  // namespace strata::cli
