#include "report/format/console/live_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "report/analysis/drift.h"
#include "report/check/wal_sync_method.h"
#include "report/format/console/check_console.h"
#include "report/format/console/concurrency_console.h"
#include "report/format/console/console_reporter.h"
#include "report/format/console/crashsim_console.h"
#include "report/format/console/mount_console.h"
#include "report/format/console/sqlite_console.h"
#include "report/format/console/sqlite_workloads_console.h"

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

void LiveConsole::RunStarted(const Context& context) {
  context_ = context;
  for (const std::string& w : BuildWarnings(context)) fmt::print(out_, "warning: {}\n", w);
  out_.flush();
}

void LiveConsole::TargetStarted(const Target& target) {
  CloseSection();
  fmt::print(out_, "\n== {} ==\n", target.path);
  out_.flush();
}

void LiveConsole::MountKnown(const Target& target) {
  if (!target.mount) return;
  if (!environment_shown_) {
    PrintEnvironment(context_, out_);
    environment_shown_ = true;
  }
  PrintMountBlock(*target.mount, out_);
  out_.flush();
}

void LiveConsole::ProbeDone(const Target&, const probes::ProbeResult& result) {
  if (section_ != Section::kProbes) {
    CloseSection();
    fmt::print(out_, "\nRaw sync primitives (latency of one write + sync):\n");
    table_ = ProbeTable();
    table_->PrintHeader(out_);
    section_ = Section::kProbes;
  }
  AddProbeRow(*table_, result, notes_);
  table_->PrintLastRow(out_);
  out_.flush();
}

void LiveConsole::SqliteDone(const Target& target, const SqliteEntry& entry) {
  if (section_ != Section::kSqlite) {
    if (section_ == Section::kProbes) AddMovedProbeNotes(target, notes_);
    CloseSection();
    fmt::print(out_, "\nSQLite commits (counted at the VFS, explained by the probes above):\n");
    table_ = SqliteTable(/*loss_columns=*/false);
    table_->PrintHeader(out_);
    section_ = Section::kSqlite;
  }
  notes_.cite_drift = HasDriftFinding(target);
  AddSqliteRow(*table_, entry, nullptr, notes_);
  table_->PrintLastRow(out_);
  out_.flush();
}

void LiveConsole::WorkloadDone(const Target& target, const std::string& name) {
  if (section_ == Section::kProbes) AddMovedProbeNotes(target, notes_);
  CloseSection();
  PrintSqliteWorkloads(OnlyWorkload(target.sqlite_workloads, name), out_);
  out_.flush();
}

void LiveConsole::TargetDone(const Target& target) {
  if (section_ == Section::kProbes) AddMovedProbeNotes(target, notes_);
  CloseSection();
  PrintConcurrency(target, out_);
  if (!target.crashsim.empty()) {
    PrintCrashsimTable(target.crashsim, out_);
    if (!target.sqlite.empty()) {
      fmt::print(out_, "\nSQLite commits with what a power cut lost (crashsim):\n");
      PrintSqliteTable(target.sqlite, target.crashsim, out_, HasDriftFinding(target));
    }
  }
  PrintUnfinished(target, out_);
  PrintFindings(target, out_);
  out_.flush();
}

void LiveConsole::AfterRun(const Report& report) {
  PrintWalSyncTables(report, out_);
  if (!report.checks.empty()) PrintChecks(report.checks, out_);
  out_.flush();
}

void LiveConsole::CloseSection() {
  if (section_ == Section::kProbes) PrintProbeNotes(notes_, out_);
  if (section_ == Section::kSqlite) PrintSqliteNotes(notes_, /*loss_columns=*/false, out_);
  section_ = Section::kNone;
  table_.reset();
  notes_ = TableNotes{};
}

}  // namespace durprobe::report
