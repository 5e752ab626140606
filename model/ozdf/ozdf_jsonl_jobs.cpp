#include "ozdf_jsonl_jobs.h"

#include <fstream>
#include <memory>
#include <sstream>

#include "formats/common/atomic_file.h"
#include "formats/ozdf/ozdf_json.h"
#include "formats/ozdf/ozdf_save.h"

namespace strata::model {

Job* startOzdfExport(JobRunner& runner, const OzdfSession& session, const QString& jsonlPath) {
    auto corpus = std::make_shared<const ozdf::Corpus>(session.corpus());
    return runner.start(QObject::tr("Export %1").arg(jsonlPath),
                        [corpus, jsonlPath](JobContext& context) {
                            try {
                                std::ostringstream text;
                                ozdf::exportJsonl(*corpus, text);
                                AtomicFile file(jsonlPath.toStdString());
                                file.write(text.view());
                                file.commit();
                            } catch (const std::exception& e) {
                                context.fail(QString::fromStdString(e.what()));
                            }
                        });
}

Job* startOzdfImport(JobRunner& runner, const QString& jsonlPath, const QString& folder) {
    return runner.start(QObject::tr("Import %1").arg(jsonlPath),
                        [jsonlPath, folder](JobContext& context) {
                            try {
                                std::ifstream in(jsonlPath.toStdString(), std::ios::binary);
                                if (!in) {
                                    context.fail(QObject::tr("cannot open %1").arg(jsonlPath));
                                    return;
                                }
                                const ozdf::Corpus corpus = ozdf::importJsonl(in);
                                ozdf::SaveOptions options;
                                options.progress = context.progressCallback();
                                options.cancel = &context.cancelToken();
                                ozdf::saveCorpusToFolder(corpus, folder.toStdString(), options);
                            } catch (const JobCancelled&) {
                                // the job ends cancelled; the save removed what it wrote
                            } catch (const std::exception& e) {
                                context.fail(QString::fromStdString(e.what()));
                            }
                        });
}

}  // namespace strata::model
