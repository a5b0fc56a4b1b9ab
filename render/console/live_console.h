// The console as a run happens: each section printed as soon as it is known (the environment and
// mount block first, then each probe row, each SQLite row, each workload table, then findings).
// A run interrupted half way has printed every row that finished. Formats only.
#pragma once

#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "model/run_events.h"
#include "render/console/console_reporter.h"
#include "text/table.h"

namespace durprobe::report {

class LiveConsole : public RunListener {
 public:
  // Prints to out, fitted to out's LineWidth (text/line_width.h).
  explicit LiveConsole(std::ostream& out);
  void RunStarted(const Context& context) override;
  void TargetStarted(const Target& target) override;
  void MountKnown(const Target& target) override;
  void ProbeDone(const Target& target, const probes::ProbeResult& result) override;
  void SqliteDone(const Target& target, const SqliteEntry& entry) override;
  void WorkloadDone(const Target& target, const std::string& name) override;
  void TargetDone(const Target& target) override;
  // What analysis added after the run (check's rule results).
  void AfterRun(const Report& report);

 private:
  enum class Section { kNone, kProbes, kSqlite };
  // Ends the open table (its notes) before another section starts.
  void CloseSection();
  // Writes what the event printed to out_, its long lines wrapped.
  void Emit();
  // The run repeats its measurement (--repeat, context.options.repeat): the tables make room
  // for the ranges.
  bool Repeated() const;

  std::ostream& out_;
  std::ostringstream buf_;
  Context context_;
  bool environment_shown_ = false;
  Section section_ = Section::kNone;
  std::optional<Table> table_;  // the open section's table, its rows printed as they come
  TableNotes notes_;
};

}  // namespace durprobe::report
