#include "codec/crashsim_json_reader.h"

#include "codec/json_reader_sections.h"

namespace durprobe::codec {

std::vector<sqlite_bench::CrashsimResult> ReadCrashsim(const JsonFields& target) {
  std::vector<sqlite_bench::CrashsimResult> rows;
  target.Each("crashsim", Need::kOptional, [&](const JsonFields& f) {
    sqlite_bench::CrashsimResult r;
    r.config.journal =
        f.Enum("journal_mode", sqlite_bench::JournalModeNames(), r.config.journal, Need::kRequired);
    r.config.sync =
        f.Enum("synchronous", sqlite_bench::SynchronousNames(), r.config.sync, Need::kRequired);
    r.config.rows_per_commit = static_cast<std::uint32_t>(f.Uint("rows_per_commit"));
    r.outcome = ReadOutcome(f);
    r.reason = f.String("reason");
    r.trials = f.Uint("trials");
    r.crash_states = f.Uint("crash_states");
    r.crash_points = f.Uint("crash_points");
    r.commits = f.Uint("commits_per_trial");
    r.corrupt = f.Uint("corrupt");
    r.trials_with_loss = f.Uint("trials_with_loss");
    JsonFields lost = f.Object("lost_commits");
    r.lost_commits_max = lost.Uint("max");
    r.lost_commits_mean = lost.Double("mean");
    r.seed = f.Uint("seed");
    r.device = f.String("device");
    r.corrupt_example = f.String("corrupt_example");
    rows.push_back(std::move(r));
  });
  return rows;
}

}  // namespace durprobe::codec
