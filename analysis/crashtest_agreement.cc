#include "analysis/crashtest_agreement.h"

namespace durprobe::report {

std::string_view NameOf(CrashClass c) {
  switch (c) {
    case CrashClass::kNone:
      return "none lost";
    case CrashClass::kLost:
      return "commits lost";
    case CrashClass::kCorrupt:
      return "corrupt";
  }
  return "";
}

CrashClass ClassOf(const sqlite_bench::CrashtestResult& r) {
  if (r.corrupt > 0) return CrashClass::kCorrupt;
  return r.lost_states > 0 ? CrashClass::kLost : CrashClass::kNone;
}

CrashClass ClassOf(const sqlite_bench::CrashsimResult& r) {
  if (r.corrupt > 0) return CrashClass::kCorrupt;
  return r.trials_with_loss > 0 ? CrashClass::kLost : CrashClass::kNone;
}

void CompareWithCrashsim(Target& t) {
  for (sqlite_bench::CrashtestResult& row : t.crashtest) {
    row.agrees_with_crashsim.reset();
    if (row.outcome != probes::Outcome::kOk || row.states == 0) continue;
    for (const sqlite_bench::CrashsimResult& sim : t.crashsim) {
      const bool same = sim.config.journal == row.config.journal &&
                        sim.config.sync == row.config.sync &&
                        sim.config.rows_per_commit == row.config.rows_per_commit;
      if (same && sim.outcome == probes::Outcome::kOk && sim.trials > 0) {
        row.agrees_with_crashsim = ClassOf(sim) == ClassOf(row);
      }
    }
  }
}

}  // namespace durprobe::report
