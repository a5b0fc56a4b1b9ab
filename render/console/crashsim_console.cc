#include "render/console/crashsim_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "text/table.h"
#include "text/utf8.h"

namespace durprobe::render::console {
namespace {

using sqlite_bench::CrashsimResult;

std::string Share(std::uint64_t n, std::uint64_t of) {
  if (of == 0) return "-";
  return fmt::format("{} ({:.0f}%)", n, 100.0 * double(n) / double(of));
}

}  // namespace

const CrashsimResult* FindCrashsim(const std::vector<CrashsimResult>& results,
                                   sqlite_bench::JournalMode journal,
                                   sqlite_bench::Synchronous sync, std::uint32_t rows_per_commit) {
  for (const CrashsimResult& r : results) {
    if (r.outcome == probes::Outcome::kOk && r.config.journal == journal && r.config.sync == sync &&
        r.config.rows_per_commit == rows_per_commit) {
      return &r;
    }
  }
  return nullptr;
}

std::string LossCell(const CrashsimResult& r) {
  return fmt::format("{}/{} max {}", r.trials_with_loss, r.trials, r.lost_commits_max);
}

std::string CorruptCell(const CrashsimResult& r) {
  return fmt::format("{}/{}", r.corrupt, r.trials);
}

void PrintCrashsimTable(const std::vector<CrashsimResult>& results, std::ostream& out) {
  if (results.empty()) return;
  const CrashsimResult& first = results.front();
  fmt::print(out,
             "\nSimulated power cuts (crashsim, seed {}, device guarantees: {}; {} commits per "
             "trial, recovered with plain SQLite):\n",
             first.seed, text::EscapeControlChars(first.device), first.commits);
  text::Table table({{"journal", text::Align::kLeft},
                     {"sync", text::Align::kLeft},
                     {"rows"},
                     {"trials", text::Align::kRight, 2},
                     {"states", text::Align::kRight, 3},
                     {"corrupt"},
                     {"lost (trials)"},
                     {"lost max"},
                     {"lost mean", text::Align::kRight, 1}});
  std::uint64_t trials = 0, states = 0;
  std::vector<std::string> notes;
  for (const CrashsimResult& r : results) {
    std::string journal(sqlite_bench::NameOf(r.config.journal));
    std::string sync(sqlite_bench::NameOf(r.config.sync));
    if (r.outcome != probes::Outcome::kOk && r.trials == 0) {
      table.AddSpanRow({journal, sync, fmt::format("{}", r.config.rows_per_commit)},
                       fmt::format("{}: {}", probes::NameOf(r.outcome), r.reason));
      continue;
    }
    trials += r.trials;
    states += r.crash_states;
    table.AddRow({journal, sync, fmt::format("{}", r.config.rows_per_commit),
                  fmt::format("{}", r.trials), fmt::format("{}", r.crash_states),
                  Share(r.corrupt, r.trials), Share(r.trials_with_loss, r.trials - r.corrupt),
                  fmt::format("{}", r.lost_commits_max),
                  fmt::format("{:.2f}", r.lost_commits_mean)});
    if (!r.corrupt_example.empty()) {
      notes.push_back(fmt::format("{}/{} x{}: first corrupt image: {}", journal, sync,
                                  r.config.rows_per_commit, r.corrupt_example));
    }
    if (r.outcome != probes::Outcome::kOk) {
      notes.push_back(fmt::format("{}/{}: {} after {} trials: {}", journal, sync,
                                  probes::NameOf(r.outcome), r.trials, r.reason));
    }
  }
  table.Print(out);
  for (const std::string& n : notes) fmt::print(out, "  note: {}\n", text::EscapeControlChars(n));
  fmt::print(out,
             "  {} distinct crash states tried in {} trials; each trial cuts the power before one "
             "of the workload's\n"
             "  disk-changing calls and keeps a seeded choice of its unsynced writes and directory "
             "operations.\n"
             "  corrupt: integrity_check failed, unreadable, or a commit half there; lost: "
             "acknowledged commits\n"
             "  missing after recovery, over the trials not corrupt (docs/durability.md)\n",
             states, trials);
}

}  // namespace durprobe::render::console
