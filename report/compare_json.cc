#include "report/compare_reporters.h"
#include "report/json_reporter.h"

namespace durprobe::report {

nlohmann::json ToJson(const Comparison& c) {
  nlohmann::json paths = nlohmann::json::array();
  nlohmann::json targets = nlohmann::json::array();
  for (const Target& t : c.targets) {
    paths.push_back(t.path);
    targets.push_back(ToJson(t));
  }
  nlohmann::json verdicts = nlohmann::json::array();
  for (const Verdict& v : c.verdicts) {
    verdicts.push_back({{"path", v.path},
                        {"dominant", v.dominant},
                        {"ratio", v.ratio},
                        {"message", v.message},
                        {"ratios", {{"per_sync", v.per_sync_ratio},
                                    {"per_op", v.per_op_ratio},
                                    {"metadata", v.metadata_ratio}}}});
  }
  return {{"schema", kCompareSchema}, {"context", ToJson(c.context)}, {"paths", paths},
          {"targets", targets}, {"verdicts", verdicts}};
}

}  // namespace durprobe::report
