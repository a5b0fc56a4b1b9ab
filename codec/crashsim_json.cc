#include "codec/crashsim_json.h"

namespace durprobe::codec {

using nlohmann::json;

json ToJson(const sqlite_bench::CrashsimResult& r) {
  json j{{"journal_mode", sqlite_bench::NameOf(r.config.journal)},
         {"synchronous", sqlite_bench::NameOf(r.config.sync)},
         {"rows_per_commit", r.config.rows_per_commit},
         {"status", probes::NameOf(r.outcome)},
         {"trials", r.trials},
         {"crash_states", r.crash_states},
         {"crash_points", r.crash_points},
         {"commits_per_trial", r.commits},
         {"corrupt", r.corrupt},
         {"trials_with_loss", r.trials_with_loss},
         {"lost_commits", {{"max", r.lost_commits_max}, {"mean", r.lost_commits_mean}}},
         {"seed", r.seed},
         {"device", r.device}};
  if (!r.reason.empty()) j["reason"] = r.reason;
  if (!r.corrupt_example.empty()) j["corrupt_example"] = r.corrupt_example;
  return j;
}

json ToJson(const std::vector<sqlite_bench::CrashsimResult>& results) {
  json rows = json::array();
  for (const sqlite_bench::CrashsimResult& r : results) rows.push_back(ToJson(r));
  return rows;
}

}  // namespace durprobe::codec
