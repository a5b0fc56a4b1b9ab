#include "render/markdown/markdown_reporter.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "analysis/sqlite_correlation.h"
#include "explain/compare_analysis.h"
#include "explain/diff_analysis.h"
#include "model/labels.h"
#include "model/percentiles.h"
#include "render/durability_lines.h"
#include "render/flush_text.h"
#include "render/fsync_error_rows.h"
#include "render/summary_text.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::render::markdown {
namespace {

void Row(const std::vector<std::string>& cells, std::ostream& out) {
  out << "|";
  for (const std::string& c : cells) out << " " << MarkdownText(c) << " |";
  out << "\n";
}

void Rule(std::size_t n, std::ostream& out) {
  out << "|";
  for (std::size_t i = 0; i < n; ++i) out << " --- |";
  out << "\n";
}

std::string Time(std::uint64_t ns) { return text::FormatNanos(static_cast<double>(ns)); }
// A percentile the operation count supports (model/percentiles.h decides), else "-".
std::string TailTime(double q, std::uint64_t ns, std::uint64_t count) {
  return model::PercentileSupported(q, count) ? Time(ns) : std::string("-");
}

void WriteContext(const model::Context& c, std::ostream& out) {
  fmt::print(out, "durprobe {} {} on {} ({} {}), SQLite {}, started {}{}\n\n",
             MarkdownText(c.durprobe_version), MarkdownCode(c.command), MarkdownText(c.host),
             MarkdownText(c.os), MarkdownText(c.kernel), MarkdownText(c.sqlite_version),
             MarkdownText(c.started_at),
             c.interrupted ? " **(interrupted: partial results)**" : "");
}

void WriteSummary(const model::Target& t, std::ostream& out) {
  if (t.summary) {
    const model::PathSummary& s = *t.summary;
    auto line = [&](const char* label, const std::string& text) {
      fmt::print(out, "- {}: {}\n", label, MarkdownText(text));
    };
    out << "**Summary**\n\n";
    line("path", s.what);
    line("durability", s.durability_line);
    line("sync cost", SyncCostText(s));
    if (s.sqlite_default) line("SQLite default", SettingText(*s.sqlite_default, false));
    if (s.sqlite_default || s.sqlite_safe || s.sqlite_fast) {
      line("keeps every commit",
           s.sqlite_safe ? SettingText(*s.sqlite_safe, true) : "no measured setting here");
    }
    if (s.sqlite_fast) {
      line("risks the last commits",
           SettingText(*s.sqlite_fast, true) + "; " + s.sqlite_fast->loses);
    }
    if (!s.findings.empty()) line("matters", fmt::format("{}", fmt::join(s.findings, ", ")));
    line("next", s.next_step);
    out << "\n";
  }
  if (!t.advice.empty()) {
    out << "**Settings to use**\n\n";
    Row({"for", "setting", "why", "measured"}, out);
    Rule(4, out);
    for (const model::PathAdvice& a : t.advice) Row({a.system, a.setting, a.why, a.evidence}, out);
    out << "\n";
  }
}

void WriteTarget(const model::Target& t, std::ostream& out) {
  fmt::print(out, "## {}\n\n", MarkdownText(t.path));
  WriteSummary(t, out);
  if (t.mount) {
    fmt::print(out, "{} on {} (mounted at {})\n\n", MarkdownText(t.mount->fstype),
               MarkdownText(t.mount->source), MarkdownText(t.mount->mount_point));
  }
  if (!t.probes.empty()) {
    // flush/op only when a probe's device flushes were counted, as on the console.
    const bool flushes = AnyFlushesCounted(t.probes);
    std::vector<std::string> header = {"primitive", "pattern", "size", "status", "ops",
                                       "ops/s",     "p50",     "p99",  "p99.9",  "max"};
    if (flushes) header.push_back(kFlushPerOpHeader);
    Row(header, out);
    Rule(header.size(), out);
    for (const probes::ProbeResult& r : t.probes) {
      bool m = r.ops > 0;
      std::vector<std::string> cells = {std::string(probes::NameOf(r.spec.primitive)),
                                        std::string(probes::NameOf(r.spec.pattern)),
                                        model::SizeLabel(r.spec) + model::RhythmLabel(r.spec),
                                        std::string(probes::NameOf(r.outcome)),
                                        std::to_string(r.ops),
                                        m ? text::FormatRate(r.ops_per_sec) : "-",
                                        m ? Time(r.latency.p50) : "-",
                                        TailTime(0.99, r.latency.p99, r.ops),
                                        TailTime(0.999, r.latency.p999, r.ops),
                                        m ? Time(r.latency.max) : "-"};
      if (flushes) cells.push_back(FlushPerOpCell(r.device_flushes));
      Row(cells, out);
    }
    out << "\n";
    if (AnyFlushCountInNoise(t.probes)) fmt::print(out, "{}\n\n", MarkdownText(kFlushNoiseNote));
  }
  if (!t.sqlite.empty()) {
    Row({"journal", "synchronous", "rows/commit", "status", "commits/s (median)", "commit (mean)",
         "commit p50", "commit p99", "syncs/commit"},
        out);
    Rule(9, out);
    for (const model::SqliteEntry& e : t.sqlite) {
      const sqlite_bench::CommitResult& r = e.result;
      bool m = r.commits > 0;
      Row({std::string(sqlite_bench::NameOf(r.config.journal)),
           std::string(sqlite_bench::NameOf(r.config.sync)),
           std::to_string(r.config.rows_per_commit), std::string(probes::NameOf(r.outcome)),
           m ? text::FormatRate(r.commits_per_sec) : "-",
           m ? text::FormatNanos(r.MeanCommitNs()) : "-", m ? Time(r.latency.p50) : "-",
           TailTime(0.99, r.latency.p99, r.commits),
           m ? fmt::format("{:.2f}", analysis::SyncsOf(r).total) : "-"},
          out);
    }
    out << "\n";
  }
  if (t.durability) {
    DurabilityText d = DurabilityTextOf(*t.durability);
    fmt::print(out, "**Durability:** {}\n\nLayers: {}\n", MarkdownText(d.headline),
               MarkdownText(d.chain));
    if (!d.to_prove.empty()) fmt::print(out, "\nTo prove it: {}\n", MarkdownText(d.to_prove));
    out << "\n";
  }
  if (!t.crashsim.empty()) {
    Row({"journal", "synchronous", "rows/commit", "status", "trials", "corrupt", "lost (trials)",
         "lost max", "lost mean"},
        out);
    Rule(9, out);
    for (const sqlite_bench::CrashsimResult& r : t.crashsim) {
      Row({std::string(sqlite_bench::NameOf(r.config.journal)),
           std::string(sqlite_bench::NameOf(r.config.sync)),
           std::to_string(r.config.rows_per_commit), std::string(probes::NameOf(r.outcome)),
           std::to_string(r.trials), std::to_string(r.corrupt), std::to_string(r.trials_with_loss),
           std::to_string(r.lost_commits_max), fmt::format("{:.2f}", r.lost_commits_mean)},
          out);
    }
    fmt::print(out,
               "\nSimulated power cuts (crashsim, docs/durability.md): corrupt and lost count "
               "trials; lost commits are acknowledged commits missing after recovery.\n\n");
  }
  if (!t.crashtest.empty()) {
    Row({"journal", "synchronous", "rows/commit", "status", "device", "states", "distinct",
         "corrupt", "lost (states)", "lost max", "crashsim"},
        out);
    Rule(11, out);
    for (const sqlite_bench::CrashtestResult& r : t.crashtest) {
      Row({std::string(sqlite_bench::NameOf(r.config.journal)),
           std::string(sqlite_bench::NameOf(r.config.sync)),
           std::to_string(r.config.rows_per_commit), std::string(probes::NameOf(r.outcome)),
           MarkdownText(r.device), std::to_string(r.states), std::to_string(r.distinct),
           std::to_string(r.corrupt), std::to_string(r.lost_states), std::to_string(r.lost_max),
           !r.agrees_with_crashsim   ? "-"
           : *r.agrees_with_crashsim ? "agrees"
                                     : "differs"},
          out);
    }
    const sqlite_bench::CrashtestResult& first = t.crashtest.front();
    fmt::print(out,
               "\nPower cuts on the crash device ({}{}, seed {}; docs/crashtest.md): each state "
               "mounted and opened with plain SQLite; corrupt: the mount or integrity_check "
               "failed; lost: acknowledged commits missing.\n\n",
               MarkdownText(first.fs),
               first.fs_options.empty() ? "" : " -o " + MarkdownText(first.fs_options), first.seed);
    for (const sqlite_bench::CrashtestResult& r : t.crashtest) {
      if (r.outcome != probes::Outcome::kOk && !r.reason.empty()) {
        fmt::print(out, "- crashtest {}/{}: {}\n", sqlite_bench::NameOf(r.config.journal),
                   sqlite_bench::NameOf(r.config.sync), MarkdownText(r.reason));
      }
      for (const sqlite_bench::CrashtestExample& e : r.examples) {
        fmt::print(out, "- {}/{} state {}{}: {}\n", sqlite_bench::NameOf(r.config.journal),
                   sqlite_bench::NameOf(r.config.sync), MarkdownCode(e.state),
                   r.log.empty() ? "" : " (log " + MarkdownCode(r.log) + ")",
                   MarkdownText(e.outcome));
      }
    }
    out << "\n";
  }
  for (const probes::FsyncErrorsResult& r : t.fsync_errors) {
    fmt::print(out,
               "Failed writes on the crash device ({}{}, kernel {}; docs/fsync-errors.md):\n\n",
               MarkdownText(r.fs), r.fs_options.empty() ? "" : " -o " + MarkdownText(r.fs_options),
               MarkdownText(r.kernel));
    Row(FsyncErrorHeads(), out);
    Rule(FsyncErrorHeads().size(), out);
    for (const probes::FsyncErrorOutcome& o : r.outcomes) {
      std::vector<std::string> cells = FsyncErrorCells(o);
      for (std::string& c : cells) c = MarkdownText(c);
      Row(cells, out);
    }
    out << "\n";
    if (!r.sqlite.empty()) {
      Row(SqliteSyncFailureHeads(), out);
      Rule(SqliteSyncFailureHeads().size(), out);
      for (const probes::SqliteSyncFailure& f : r.sqlite) {
        std::vector<std::string> cells = SqliteSyncFailureCells(f);
        for (std::string& c : cells) c = MarkdownText(c);
        Row(cells, out);
      }
      out << "\n";
    }
  }
  for (const model::Unfinished& u : t.unfinished)
    fmt::print(out, "- not run or not finished ({}): {} {}\n", MarkdownText(ReasonWords(u)),
               NameOf(u.kind), MarkdownText(u.label));
  for (const model::Finding& f : t.findings) {
    fmt::print(out, "- **{}** {}: {}\n", NameOf(f.severity), MarkdownCode(f.code),
               MarkdownText(f.message));
  }
  if (!t.findings.empty() || !t.unfinished.empty()) out << "\n";
}

}  // namespace

std::string MarkdownText(const std::string& text) {
  std::string out;
  for (char c : text::EscapeControlChars(text)) {
    if (c == '|' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '&') {
      out += "&amp;";
    } else {
      out += c;
    }
  }
  return out;
}

std::string MarkdownCode(const std::string& text) {
  std::string body = text::EscapeControlChars(text);
  std::size_t longest = 0, run = 0;
  for (char c : body) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  bool pad = body.empty() || body.front() == '`' || body.back() == '`' ||
             (body.front() == ' ' && body.back() == ' ');
  std::string fence(longest + 1, '`');
  return pad ? fence + " " + body + " " + fence : fence + body + fence;
}

Status MarkdownReporter::Write(const model::Report& report, std::ostream& out) const {
  out << "# durprobe report\n\n";
  WriteContext(report.context, out);
  for (const model::Target& t : report.targets) WriteTarget(t, out);
  return Status::Ok();
}

Status MarkdownReporter::Write(const explain::Comparison& c, std::ostream& out) const {
  out << "# durprobe compare\n\n";
  WriteContext(c.context, out);
  if (!c.verdicts.empty()) {
    Row({"path", "dominant", "ratio", "verdict"}, out);
    Rule(4, out);
    for (const explain::Verdict& v : c.verdicts) {
      Row({v.path, std::string(NameOf(v.dominant)), text::FormatRatio(v.ratio), v.message}, out);
    }
    out << "\n";
  }
  for (const model::Target& t : c.targets) WriteTarget(t, out);
  return Status::Ok();
}

Status MarkdownReporter::Write(const explain::Diff& d, std::ostream& out) const {
  fmt::print(out, "# durprobe diff\n\nA: {}  B: {}\n\n", MarkdownCode(d.a_name),
             MarkdownCode(d.b_name));
  if (!d.configs.empty()) {
    Row({"journal", "synchronous", "rows/commit", "commits/s A", "commits/s B", "sync latency",
         "sync count", "non-sync"},
        out);
    Rule(8, out);
    for (const explain::ConfigDiff& c : d.configs) {
      Row({c.journal_mode, c.synchronous, std::to_string(c.rows_per_commit),
           text::FormatRate(c.commits_per_sec_a), text::FormatRate(c.commits_per_sec_b),
           fmt::format("{:.0f}%", c.share_sync_latency * 100),
           fmt::format("{:.0f}%", c.share_sync_count * 100),
           fmt::format("{:.0f}%", c.share_non_sync * 100)},
          out);
    }
    out << "\n";
  }
  for (const explain::Difference& x : d.differences) {
    fmt::print(out, "- {}: {} vs {}\n", MarkdownText(x.key), MarkdownCode(x.a), MarkdownCode(x.b));
  }
  fmt::print(out, "\n**Verdict** ({}): {}\n", NameOf(d.verdict.factor),
             MarkdownText(d.verdict.message));
  return Status::Ok();
}

}  // namespace durprobe::render::markdown
