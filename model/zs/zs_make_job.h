// "New ZS file from text": runs the ZS writer over an input file as a background job. The
// file is written under a temporary name beside the output and renamed into place only once
// it is complete, so a cancelled or failed run never leaves a partial file behind.
#pragma once

#include <QString>

#include <string>

#include <nlohmann/json.hpp>

#include "formats/zs/zs_writer.h"

namespace strata::model {

class Job;
class JobContext;
class JobRunner;

struct ZsMakeRequest {
    enum class Framing { Terminated, Uleb128, U64le };

    QString input;
    QString output;
    zs::WriterOptions options;
    Framing framing = Framing::Terminated;
    std::string terminator = "\n";
    nlohmann::ordered_json metadata = nlohmann::ordered_json::object();
};

// Parses escapes in a terminator or key as typed ("\n", "\r\n", "\0", "\x1e", "\\").
std::string unescapeText(const QString& text, QString* error = nullptr);

// The work function: reads the input, writes the file, reports progress by input position and
// stops (removing what it wrote) when cancelled. Fails the job with a readable reason.
void runZsMake(const ZsMakeRequest& request, JobContext& context);

// Starts runZsMake under a new job titled "New ZS file: NAME".
Job* startZsMake(JobRunner& runner, const ZsMakeRequest& request);

}  // namespace strata::model
