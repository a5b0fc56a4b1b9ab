#include "render/console/console_reporter.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <sstream>

#include "analysis/device_flushes.h"
#include "analysis/drift.h"
#include "gate/wal_sync_method.h"
#include "model/labels.h"
#include "render/console/powercut_console.h"
#include "model/percentiles.h"
#include "render/console/check_console.h"
#include "render/console/compare_console.h"
#include "render/console/concurrency_console.h"
#include "render/console/crashsim_console.h"
#include "render/console/crashtest_console.h"
#include "render/console/diff_console.h"
#include "render/console/fsync_errors_console.h"
#include "render/console/mount_console.h"
#include "render/console/path_summary_console.h"
#include "render/console/pg_console.h"
#include "render/console/repeat_cells.h"
#include "render/console/sqlite_console.h"
#include "render/console/sqlite_workloads_console.h"
#include "render/console/summary_console.h"
#include "render/durability_lines.h"
#include "render/flush_text.h"
#include "text/line_width.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::render::console {
namespace {

std::string SizeCell(const probes::ProbeResult& r) {
  return model::SizeLabel(r.spec) + model::RhythmLabel(r.spec);
}

// A note's probe: primitive, pattern and write size ("fsync append 4 KiB"), so notes stay apart
// when two sizes ran; no size for a directory sync.
std::string NoteLabel(const probes::ProbeResult& r) {
  std::string label =
      fmt::format("{} {}", probes::NameOf(r.spec.primitive), probes::NameOf(r.spec.pattern));
  std::string size = SizeCell(r);
  return size == "-" ? label : label + " " + size;
}

// The median with its interval, or with the operations behind it where they cannot support an
// interval (probes::CiSupported): "4.01 ms, 1 op"; repeated, with the range between the repeats.
std::string Median(const probes::ProbeResult& r, const model::ProbeRepeats* repeats) {
  if (repeats != nullptr && Ranged(repeats->p50_ns)) return NanosRangeCell(repeats->p50_ns);
  const probes::LatencySummary& s = r.latency;
  std::string p50 = text::FormatNanos(static_cast<double>(s.p50));
  if (!probes::CiSupported(r.ops, r.seconds))
    return fmt::format("{}, {}", p50, text::OpsCount(r.ops));
  return fmt::format("{} ±{:.0f}%", p50, s.p50_ci_relative * 100.0);
}

// One note for every probe measured while the device moved (target.moved), each with the
// reference probe's levels before and after it; the reference probe is explained where it first
// appears on screen.
void AddMovedProbeNotes(const model::Target& target, TableNotes& notes) {
  std::vector<std::string> moved;
  for (const model::DeviceMoved& m : target.moved) {
    if (m.probe >= target.probes.size()) continue;
    moved.push_back(fmt::format("{} ({}, then {})", model::ProbeLabel(target.probes[m.probe].spec),
                                text::FormatNanos(m.before_ns), text::FormatNanos(m.after_ns)));
  }
  if (moved.empty()) return;
  notes.Add(fmt::format(
      "measured while the device moved: the reference probe (one small fdatasync, repeated "
      "between the probes to see the device change) read a different level before and after "
      "each: {}{}",
      fmt::join(moved, ", "), analysis::HasDriftFinding(target) ? " (latency_drift)" : ""));
}

// A probe's figures per device state (device_states): both states' p50 and p99, or the one state
// it ran in; with --repeat, the p50 is the median of the repeats' in that state, with their range.
std::string StateText(const model::StateFigures& f) {
  return fmt::format(
      "{} state ({:.0f}% of its time, {} ops) p50 {}, p99 {}", NameOf(f.state),
      f.time_share * 100.0, f.ops,
      Ranged(f.p50_repeats) ? NanosRangeCell(f.p50_repeats) : text::FormatNanos(double(f.p50_ns)),
      f.p99_ns > 0 ? text::FormatNanos(double(f.p99_ns)) : std::string("-"));
}

void AddStateNotes(const model::Target& target, TableNotes& notes) {
  // The probes measured in one state only, one note per state.
  std::vector<std::pair<std::string, std::vector<std::string>>> wholly;
  for (const model::ProbeStates& ps : target.probe_states) {
    if (ps.probe >= target.probes.size() || ps.states.empty()) continue;
    std::string label = model::ProbeLabel(target.probes[ps.probe].spec);
    if (ps.states.size() == 1) {
      std::string state(NameOf(ps.states[0].state));
      auto it = std::find_if(wholly.begin(), wholly.end(),
                             [&](const auto& w) { return w.first == state; });
      if (it == wholly.end()) it = wholly.insert(wholly.end(), {state, {}});
      it->second.push_back(std::move(label));
      continue;
    }
    notes.Add(fmt::format("{}: {}; {} (device_states)", label, StateText(ps.states[0]),
                          StateText(ps.states[1])));
  }
  for (const auto& [state, labels] : wholly) {
    notes.Add(fmt::format("measured wholly in the device's {} state (device_states): {}", state,
                          fmt::join(labels, ", ")));
  }
}

// Under a table with the flush/op column: the leading devices its figures were counted on, then
// why a probe's could not be counted.
void AddFlushNotes(const std::vector<probes::ProbeResult>& results, TableNotes& notes) {
  std::vector<std::string> devices;
  for (const probes::ProbeResult& r : results) {
    const probes::DeviceFlushes* d = r.device_flushes.ok() ? r.device_flushes.Leading() : nullptr;
    if (d != nullptr && std::find(devices.begin(), devices.end(), d->name) == devices.end()) {
      devices.push_back(d->name);
    }
  }
  if (!devices.empty()) {
    notes.Add(fmt::format(
        "flush/op: flush requests the device completed per operation, less the background ({})",
        fmt::join(devices, ", ")));
  }
  for (const probes::ProbeResult& r : results) {
    const probes::FlushTally& f = r.device_flushes;
    if (!f.counted || f.ok()) continue;
    notes.Add("flush/op: unavailable: " +
              (f.unavailable.empty() ? std::string("no device counted") : f.unavailable));
  }
}

// What a primitive whose name is durprobe's own is in PostgreSQL's terms (wal_sync_method), on
// the run screen where the name first appears; "" for the names PostgreSQL spells the same.
std::string_view PostgresName(probes::Primitive p) {
  using probes::Primitive;
  if (p == Primitive::kOdsync) {
    return "a write through O_DSYNC: PostgreSQL's wal_sync_method = open_datasync";
  }
  if (p == Primitive::kOsync) {
    return "a write through O_SYNC: PostgreSQL's wal_sync_method = open_sync";
  }
  if (p == Primitive::kOdirectDsync) {
    return "O_DIRECT with O_DSYNC: open_datasync as PostgreSQL opens it with direct I/O";
  }
  if (p == Primitive::kRwfDsync) {
    return "pwritev2 with RWF_DSYNC: open_datasync's promise for one write (no PostgreSQL "
           "setting)";
  }
  return "";
}

}  // namespace

text::Table ProbeTable(bool repeated, bool flushes) {
  // On a narrow terminal the flushes per operation go first, then the rarer percentiles, then
  // the counts; what a sync costs (p50, p99) and what it is stay.
  std::vector<text::Column> columns = {{"primitive", text::Align::kLeft},
                                       {"pattern", text::Align::kLeft},
                                       {"size"},
                                       {"ops", text::Align::kRight, 3},
                                       {"ops/s", text::Align::kRight, 1},
                                       {repeated ? "p50 (range)" : "p50 (95% CI)"},
                                       {"p90", text::Align::kRight, 4},
                                       {"p99"},
                                       {"p99.9", text::Align::kRight, 6},
                                       {"max", text::Align::kRight, 5},
                                       {"sync p50", text::Align::kRight, 2}};
  if (flushes) columns.push_back({kFlushPerOpHeader, text::Align::kRight, 7});
  return text::Table(std::move(columns));
}

void AddProbeRow(text::Table& table, const probes::ProbeResult& r, TableNotes& notes,
                 const model::ProbeRepeats* repeats) {
  std::string prim(probes::NameOf(r.spec.primitive));
  std::string pat(probes::NameOf(r.spec.pattern));
  if (r.outcome == probes::Outcome::kUnsupported) {
    table.AddSpanRow({prim, pat, SizeCell(r)}, "unsupported: " + r.reason);
    return;
  }
  if (r.ops == 0) {
    table.AddSpanRow({prim, pat, SizeCell(r)},
                     fmt::format("{}: {}", probes::NameOf(r.outcome), r.reason));
    return;
  }
  const probes::LatencySummary& l = r.latency;
  notes.any_short = notes.any_short || !model::P999(l);
  const bool p99_ranged = repeats != nullptr && Ranged(repeats->p99_ns) && model::P99(l);
  table.AddRow({prim, pat, SizeCell(r), fmt::format("{}", r.ops), text::FormatRate(r.ops_per_sec),
                Median(r, repeats), text::PercentileCell(model::P90(l)),
                p99_ranged ? NanosRangeCell(repeats->p99_ns) : text::PercentileCell(model::P99(l)),
                text::PercentileCell(model::P999(l)), text::NanosCell(l.max),
                r.has_sync_part ? text::NanosCell(r.sync_latency.p50) : std::string("-"),
                FlushPerOpCell(r.device_flushes)});
  if (analysis::FlushCountInNoise(r.device_flushes)) notes.Add(kFlushNoiseNote);
  if (repeats != nullptr && Ranged(repeats->p50_ns)) notes.Add(RepeatsNote());
  if (r.outcome != probes::Outcome::kOk) {
    notes.Add(fmt::format("{}: {} after {} ops: {}", NoteLabel(r), probes::NameOf(r.outcome), r.ops,
                          r.reason));
  }
  if (!r.caveat.empty()) notes.Add(fmt::format("{}: {}", prim, r.caveat));
  if (std::string_view pg = PostgresName(r.spec.primitive); !pg.empty()) {
    notes.Add(fmt::format("{}: {}", prim, pg));
  }
  if (r.spec.paced_per_sec > 0) {
    notes.Add(
        fmt::format("{}: paced, one operation every {} (the rate the preset's database "
                    "syncs at), waiting on the CPU as a busy server does; ops/s is what the "
                    "device does at that pace",
                    NoteLabel(r), text::FormatNanos(1e9 / r.spec.paced_per_sec)));
  }
  if (r.spec.work_us > 0) {
    std::string how = r.spec.work_round_trips > 0
                          ? fmt::format(
                                " as {} round trips to a second thread, each side "
                                "asleep while the other works",
                                r.spec.work_round_trips)
                          : std::string(" on the CPU");
    notes.Add(
        fmt::format("{}: each operation follows {} of work{} (one client's transaction "
                    "besides its commit); ops/s counts it: that client's commit rate",
                    NoteLabel(r), text::FormatNanos(1e3 * r.spec.work_us), how));
  }
  // Too few operations for an interval at all: the cell says so, and too_few_operations why.
  if (!r.converged && r.outcome == probes::Outcome::kOk && probes::CiSupported(r.ops, r.seconds)) {
    // A paced probe's timed seconds leave its waits out: its operations say more.
    std::string after = r.spec.paced_per_sec > 0 ? fmt::format("{} operations", r.ops)
                                                 : fmt::format("{:.1f} s", r.seconds);
    notes.Add(
        fmt::format("{}: median not within the target confidence after {} "
                    "(raise --budget for a tighter figure)",
                    NoteLabel(r), after));
  }
}

void PrintProbeNotes(const TableNotes& notes, std::ostream& out) {
  PrintNoteLines(notes, out);
  if (notes.any_short) fmt::print(out, "  {}\n", text::kPercentileLegend);
}

void PrintProbeTable(const std::vector<probes::ProbeResult>& results, std::ostream& out,
                     const model::Target* target) {
  const std::vector<model::ProbeRepeats> none;
  const std::vector<model::ProbeRepeats>& repeats =
      target != nullptr ? target->probe_repeats : none;
  const bool flushes = AnyFlushesCounted(results);
  text::Table table = ProbeTable(!repeats.empty(), flushes);
  TableNotes notes;
  for (std::size_t i = 0; i < results.size(); ++i) {
    AddProbeRow(table, results[i], notes, FindRepeats(repeats, i));
  }
  if (target != nullptr) {
    AddMovedProbeNotes(*target, notes);
    AddStateNotes(*target, notes);
  }
  if (flushes) AddFlushNotes(results, notes);
  table.Print(out);
  PrintProbeNotes(notes, out);
}

void PrintFindingLine(const std::string& line, std::ostream& out) {
  // Piped, a line a log viewer cannot show is broken; on a terminal FitLines breaks every line.
  const std::size_t wrap = text::LineWidth(out) == 0 ? text::LongLineWrap(out) : 0;
  bool long_line = wrap > 0 && text::DisplayWidth(line) + 2 > text::kLongLine;
  fmt::print(out, "  {}\n", long_line ? text::WrapText(line, wrap, 2, 4) : line);
}

void PrintFindings(const model::Target& t, std::ostream& out) {
  if (t.durability) {
    DurabilityText d = DurabilityTextOf(*t.durability);
    fmt::print(out, "\nDurability: {}\n  layers: {}\n", text::EscapeControlChars(d.headline),
               text::EscapeControlChars(d.chain));
    if (!d.to_prove.empty())
      fmt::print(out, "  to prove it: {}\n", text::EscapeControlChars(d.to_prove));
  }
  if (t.findings.empty()) return;
  fmt::print(out, "\nFindings:\n");
  for (const model::Finding& f : t.findings) {
    PrintFindingLine(
        fmt::format("[{}] {}: {}", NameOf(f.severity), text::EscapeControlChars(f.code),
                    text::EscapeControlChars(f.message)),
        out);
  }
}

void PrintUnfinished(const model::Target& t, std::ostream& out) {
  if (t.unfinished.empty()) return;
  fmt::print(out, "\nNot run or not finished:\n");
  for (const model::Unfinished& u : t.unfinished) {
    fmt::print(out, "  {} {} ({})\n", NameOf(u.kind), text::EscapeControlChars(u.label),
               text::EscapeControlChars(ReasonWords(u)));
  }
}

void PrintReport(const model::Report& report, std::ostream& out) {
  for (const std::string& w : BuildWarnings(report.context)) {
    fmt::print(out, "warning: {}\n", text::EscapeControlChars(w));
  }
  PrintCheckVerdict(report.checks, out);
  if (!report.targets.empty() && report.targets.front().mount) {
    PrintEnvironment(report.context, out);
  }
  for (const model::Target& t : report.targets) {
    fmt::print(out, "\n== {} ==\n", text::EscapeControlChars(t.path));
    PrintPathSummary(t, out);
    PrintAdvice(t, out);
    if (t.summary) fmt::print(out, "\n");
    if (t.mount) {
      PrintMountBlock(*t.mount, out);
      PrintLimitRows(report.context, *t.mount, out);
    }
    if (!t.probes.empty()) {
      fmt::print(out, "\nRaw sync primitives (latency of one write + sync):\n");
      PrintProbeTable(t.probes, out, &t);
      if (PgTestFsyncRun(report.context)) PrintPgTestFsync(t, out);
    }
    if (!t.sqlite.empty()) {
      fmt::print(out, "\nSQLite commits (counted at the VFS, explained by the probes above):\n");
      PrintSqliteTable(t.sqlite, t.crashsim, out, analysis::HasDriftFinding(t));
    }
    if (!t.sqlite_workloads.empty()) PrintSqliteWorkloads(t.sqlite_workloads, out);
    PrintConcurrency(t, out);
    PrintCrashsimTable(t.crashsim, out);
    PrintCrashtestTable(t.crashtest, out);
    PrintFsyncErrors(t.fsync_errors, out);
    PrintUnfinished(t, out);
    PrintFindings(t, out);
  }
  gate::PrintWalSyncTables(report, out);
  if (!report.checks.empty()) PrintChecks(report.checks, out);
  // On a terminal the summary has scrolled off by now; piped or in a file, the top is at hand.
  if (text::LineWidth(out) > 0) PrintRecap(report, out);
}

void PrintFitted(std::ostream& out, const std::function<void(std::ostream&)>& print) {
  std::size_t width = text::LineWidth(out);
  std::ostringstream text;
  text::SetLineWidth(text, width);
  text::SetLongLineWrap(text, text::LongLineWrap(out));
  text::SetEveryNote(text, text::EveryNote(out));
  print(text);
  // The printers escape each value (a newline in a path cannot start a line); this pass is the
  // net under them: no control byte but the document's own newlines and tabs reaches a terminal.
  out << text::FitLines(EscapeControlChars(text.str(), text::LineBreaks::kKeep), width);
}

Status ConsoleReporter::Write(const model::Report& report, std::ostream& out) const {
  PrintFitted(out, [&](std::ostream& o) { PrintReport(report, o); });
  return Status::Ok();
}

Status ConsoleReporter::Write(const explain::Comparison& comparison, std::ostream& out) const {
  PrintFitted(out, [&](std::ostream& o) { PrintComparison(comparison, o); });
  return Status::Ok();
}

Status ConsoleReporter::Write(const explain::Diff& diff, std::ostream& out) const {
  PrintFitted(out, [&](std::ostream& o) { PrintDiff(diff, o); });
  return Status::Ok();
}

Status ConsoleReporter::Write(const explain::Summary& summary, std::ostream& out) const {
  PrintFitted(out, [&](std::ostream& o) { WriteSummaryTable(summary.rows, o); });
  return Status::Ok();
}

Status ConsoleReporter::Write(const model::PowercutEvidence& evidence, std::ostream& out) const {
  out << PowercutVerifyText(evidence);
  return Status::Ok();
}

}  // namespace durprobe::render::console
