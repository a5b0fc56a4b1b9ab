#include "render/console/live_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "analysis/drift.h"
#include "gate/wal_sync_method.h"
#include "render/console/check_console.h"
#include "render/console/concurrency_console.h"
#include "render/console/console_reporter.h"
#include "render/console/crashsim_console.h"
#include "render/console/mount_console.h"
#include "render/console/path_summary_console.h"
#include "render/console/sqlite_console.h"
#include "render/console/sqlite_workloads_console.h"
#include "text/line_width.h"
#include "text/utf8.h"

namespace durprobe::report {
namespace {

// Only the named workload's results, so its table prints alone.
sqlite_bench::WorkloadResults OnlyWorkload(const sqlite_bench::WorkloadResults& all,
                                           const std::string& name) {
  sqlite_bench::WorkloadResults one;
  if (name == "read") one.read = all.read;
  if (name == "connect") one.connect = all.connect;
  if (name == "locks") one.locks = all.locks;
  if (name == "concurrency") one.concurrency = all.concurrency;
  if (name == "wal_growth") one.wal_growth = all.wal_growth;
  return one;
}

}  // namespace

LiveConsole::LiveConsole(std::ostream& out) : out_(out) { SetLineWidth(buf_, LineWidth(out)); }

void LiveConsole::Emit() {
  // As ConsoleReporter's PrintFitted: nothing but the document's newlines and tabs is raw.
  out_ << FitLines(EscapeControlChars(buf_.str(), LineBreaks::kKeep), LineWidth(buf_));
  out_.flush();
  buf_.str("");
}

void LiveConsole::RunStarted(const Context& context) {
  context_ = context;
  for (const std::string& w : BuildWarnings(context))
    fmt::print(buf_, "warning: {}\n", EscapeControlChars(w));
  Emit();
}

void LiveConsole::TargetStarted(const Target& target) {
  CloseSection();
  if (!environment_shown_) {  // once, above the first path: it holds for every path
    PrintEnvironment(context_, buf_);
    environment_shown_ = true;
  }
  fmt::print(buf_, "\n== {} ==\n", EscapeControlChars(target.path));
  Emit();
}

bool LiveConsole::Repeated() const {
  const auto repeat = context_.options.find("repeat");
  return repeat != context_.options.end() && repeat->is_number_integer() && repeat->get<int>() > 1;
}

void LiveConsole::MountKnown(const Target& target) {
  if (!target.mount) return;
  PrintMountBlock(*target.mount, buf_);
  Emit();
}

void LiveConsole::ProbeDone(const Target& target, const probes::ProbeResult& result) {
  if (section_ != Section::kProbes) {
    CloseSection();
    fmt::print(buf_, "\nRaw sync primitives (latency of one write + sync):\n");
    std::vector<std::string> planned;
    const auto probes = context_.options.find("probes");
    if (probes != context_.options.end() && probes->is_array()) {
      for (const auto& label : *probes) {
        if (label.is_string()) planned.push_back(label.get<std::string>());
      }
    }
    table_ = ProbeTable(ProbeSizeWidth(planned), Repeated());
    table_->PrintHeader(buf_);
    section_ = Section::kProbes;
  }
  const ProbeRepeats* repeats = nullptr;
  if (!target.probes.empty() && &result >= target.probes.data() &&
      &result < target.probes.data() + target.probes.size()) {
    repeats =
        FindRepeats(target.probe_repeats, static_cast<std::size_t>(&result - target.probes.data()));
  }
  AddProbeRow(*table_, result, notes_, repeats);
  table_->PrintLastRow(buf_);
  Emit();
}

void LiveConsole::SqliteDone(const Target& target, const SqliteEntry& entry) {
  if (section_ != Section::kSqlite) {
    if (section_ == Section::kProbes) AddDeviceNotes(target, notes_);
    CloseSection();
    fmt::print(buf_, "\nSQLite commits (counted at the VFS, explained by the probes above):\n");
    table_ = SqliteTable(/*loss_columns=*/false, Repeated());
    table_->PrintHeader(buf_);
    section_ = Section::kSqlite;
  }
  notes_.cite_drift = HasDriftFinding(target);
  AddSqliteRow(*table_, entry, nullptr, notes_);
  table_->PrintLastRow(buf_);
  Emit();
}

void LiveConsole::WorkloadDone(const Target& target, const std::string& name) {
  if (section_ == Section::kProbes) AddDeviceNotes(target, notes_);
  CloseSection();
  PrintSqliteWorkloads(OnlyWorkload(target.sqlite_workloads, name), buf_);
  Emit();
}

void LiveConsole::TargetDone(const Target& target) {
  if (section_ == Section::kProbes) AddDeviceNotes(target, notes_);
  CloseSection();
  PrintConcurrency(target, buf_);
  // The SQLite matrix was printed row by row already; its losses are in the crashsim table, so
  // the matrix is not printed a second time.
  PrintCrashsimTable(target.crashsim, buf_);
  PrintUnfinished(target, buf_);
  PrintFindings(target, buf_);
  // Printed as the run goes, the summary can only close the path's block (a whole document,
  // on a terminal or in a file, opens with it).
  if (target.summary) {
    fmt::print(buf_, "\n");
    PrintPathSummary(target, buf_);
    PrintAdvice(target, buf_);
  }
  Emit();
}

void LiveConsole::AfterRun(const Report& report) {
  PrintWalSyncTables(report, buf_);
  if (!report.checks.empty()) {
    // The same headline a whole document opens with, so piped output says it too.
    fmt::print(buf_, "\n");
    PrintCheckVerdict(report.checks, buf_);
    PrintChecks(report.checks, buf_);
  }
  Emit();
}

void LiveConsole::CloseSection() {
  if (section_ == Section::kProbes) PrintProbeNotes(notes_, buf_);
  if (section_ == Section::kSqlite) PrintSqliteNotes(notes_, /*loss_columns=*/false, buf_);
  section_ = Section::kNone;
  table_.reset();
  notes_ = TableNotes{};
}

}  // namespace durprobe::report
