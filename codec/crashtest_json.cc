#include "codec/crashtest_json.h"

#include "codec/json_reader_sections.h"

namespace durprobe::codec {

using nlohmann::json;

json ToJson(const std::vector<sqlite_bench::CrashtestResult>& results) {
  json rows = json::array();
  for (const sqlite_bench::CrashtestResult& r : results) {
    json examples = json::array();
    for (const sqlite_bench::CrashtestExample& e : r.examples) {
      examples.push_back({{"state", e.state}, {"outcome", e.outcome}});
    }
    json timeline = json::array();
    for (const sqlite_bench::CrashtestMoment& m : r.timeline) {
      timeline.push_back({{"flush", m.flush},
                          {"acknowledged", m.acknowledged},
                          {"present", m.present},
                          {"corrupt", m.corrupt}});
    }
    json j{{"journal_mode", sqlite_bench::NameOf(r.config.journal)},
           {"synchronous", sqlite_bench::NameOf(r.config.sync)},
           {"batch", r.config.rows_per_commit},
           {"status", probes::NameOf(r.outcome)},
           {"filesystem", r.fs},
           {"mount_options", r.fs_options},
           {"device", r.device},
           {"filesystem_of_path", r.paths_own_fs},
           {"seed", r.seed},
           {"commits", r.commits},
           {"writes", r.writes},
           {"flushes", r.flushes},
           {"log", r.log},
           {"workload_runs", r.workload_runs},
           {"states", r.states},
           {"distinct", r.distinct},
           {"corrupt", r.corrupt},
           {"mount_failed", r.mount_failed},
           {"lost_states", r.lost_states},
           {"lost_max", r.lost_max},
           {"states_ns", r.ns},
           {"agrees_with_crashsim",
            r.agrees_with_crashsim ? json(*r.agrees_with_crashsim) : json(nullptr)},
           {"examples", examples},
           {"timeline", timeline}};
    if (!r.reason.empty()) j["reason"] = r.reason;
    rows.push_back(std::move(j));
  }
  return rows;
}

std::vector<sqlite_bench::CrashtestResult> ReadCrashtest(const JsonFields& target) {
  std::vector<sqlite_bench::CrashtestResult> rows;
  target.Each("crashtest", Need::kOptional, [&](const JsonFields& f) {
    sqlite_bench::CrashtestResult r;
    r.config.journal =
        f.Enum("journal_mode", sqlite_bench::JournalModeNames(), r.config.journal, Need::kRequired);
    r.config.sync =
        f.Enum("synchronous", sqlite_bench::SynchronousNames(), r.config.sync, Need::kRequired);
    r.config.rows_per_commit = static_cast<std::uint32_t>(f.Uint("batch"));
    r.outcome = ReadOutcome(f);
    r.reason = f.String("reason");
    r.fs = f.String("filesystem");
    r.fs_options = f.String("mount_options");
    r.device = f.String("device");
    r.paths_own_fs = f.Bool("filesystem_of_path");
    r.seed = f.Uint("seed");
    r.commits = f.Uint("commits");
    r.writes = f.Uint("writes");
    r.flushes = f.Uint("flushes");
    r.log = f.String("log");
    r.workload_runs = f.Uint("workload_runs");
    r.states = f.Uint("states");
    r.distinct = f.Uint("distinct");
    r.corrupt = f.Uint("corrupt");
    r.mount_failed = f.Uint("mount_failed");
    r.lost_states = f.Uint("lost_states");
    r.lost_max = f.Uint("lost_max");
    r.ns = f.Uint("states_ns");
    r.agrees_with_crashsim = f.OptionalBool("agrees_with_crashsim");
    f.Each("examples", Need::kOptional, [&](const JsonFields& e) {
      r.examples.push_back({e.String("state"), e.String("outcome")});
    });
    f.Each("timeline", Need::kOptional, [&](const JsonFields& m) {
      r.timeline.push_back(
          {m.Uint("flush"), m.Uint("acknowledged"), m.Uint("present"), m.Bool("corrupt")});
    });
    rows.push_back(std::move(r));
  });
  return rows;
}

}  // namespace durprobe::codec
