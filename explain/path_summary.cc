#include "explain/path_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "analysis/device_states.h"
#include "explain/path_advice.h"
#include "model/labels.h"
#include "model/percentiles.h"
#include "platform/container.h"
#include "platform/enum_table.h"
#include "text/shell_quote.h"
#include "text/units.h"

namespace durprobe::explain {
namespace {

using sqlite_bench::CommitResult;
using sqlite_bench::RiskLevel;

std::string WhatThePathIs(const platform::MountInfo& m) {
  std::string what = m.fs_subtype.empty() ? m.fstype : m.fstype + " (FUSE)";
  if (m.overlay) what += m.overlay->volatile_mount ? " (volatile overlay)" : " (overlay)";
  if (m.device) {
    const platform::DeviceInfo& d = m.device->slaves.empty() ? *m.device : m.device->slaves[0];
    std::string cache = d.write_cache == "write back"      ? "volatile write cache"
                        : d.write_cache == "write through" ? "no volatile write cache"
                                                           : "write cache unknown";
    std::string fua = !d.fua ? "" : *d.fua ? ", FUA" : ", no FUA";
    what += fmt::format(" on {} ({}{})", m.device->name, cache, fua);
  } else if (!m.source.empty()) {
    what += " from " + m.source;
  }
  if (m.bind) what += ", a bind mount";
  if (m.container.in_container) {
    std::string runtime = m.container.runtime.empty() ? "a container" : m.container.runtime;
    what += fmt::format("; in {}: {}", runtime,
                        m.container.path_role ? NameOf(*m.container.path_role) : "role unknown");
  }
  return what;
}

std::string DurabilityLine(const std::optional<model::Durability>& d) {
  if (!d) return "durability not assessed";
  std::string line(NameOf(d->verdict));
  if (d->deciding_layer) {
    line += fmt::format(" (deciding layer: {})", NameOf(*d->deciding_layer));
  }
  if (!d->reason.empty()) line += ": " + d->reason;
  if (d->verdict == model::DurabilityVerdict::kUnproven && !d->to_prove.empty()) {
    line += "; to prove it: " + d->to_prove;
  }
  return line;
}

// The probe a durable write is priced by: fdatasync (else fsync, else any sync) overwriting
// 4 KiB, else the first measured sync probe.
const probes::ProbeResult* CostProbe(const std::vector<probes::ProbeResult>& results) {
  const probes::ProbeResult* best = nullptr;
  int best_rank = 99;
  for (const probes::ProbeResult& r : results) {
    if (r.outcome != probes::Outcome::kOk || r.ops == 0) continue;
    if (r.spec.primitive == probes::Primitive::kNone ||
        r.spec.primitive == probes::Primitive::kDirFsync) {
      continue;
    }
    int rank = r.spec.primitive == probes::Primitive::kFdatasync ? 0
               : r.spec.primitive == probes::Primitive::kFsync   ? 2
                                                                 : 4;
    if (r.spec.pattern != probes::Pattern::kOverwrite || r.spec.write_size != 4096) ++rank;
    if (rank < best_rank) {
      best = &r;
      best_rank = rank;
    }
  }
  return best;
}

const sqlite_bench::CrashsimResult* CrashOf(const model::Target& t, const CommitResult& r) {
  for (const sqlite_bench::CrashsimResult& c : t.crashsim) {
    if (c.outcome == probes::Outcome::kOk && c.trials > 0 && c.config.journal == r.config.journal &&
        c.config.sync == r.config.sync && c.config.rows_per_commit == r.config.rows_per_commit) {
      return &c;
    }
  }
  return nullptr;
}

bool Usable(const CommitResult& r) {
  return r.outcome == probes::Outcome::kOk && r.commits > 0 && r.config.rows_per_commit == 1 &&
         !r.config.fullfsync.value_or(false);
}

bool IsDefault(const CommitResult& r) {
  return r.config.journal == sqlite_bench::JournalMode::kDelete &&
         r.config.sync == sqlite_bench::Synchronous::kFull;
}

// What a configuration at each risk level keeps or loses, in its summary line.
constexpr platform::TextRow<RiskLevel> kLosses[] = {
    {RiskLevel::kNone, "keeps every acknowledged commit"},
    {RiskLevel::kLastCommit, "may roll back the last commit on power loss"},
    {RiskLevel::kRecentCommits, "may lose the last commits on power loss, no corruption"},
    {RiskLevel::kCorruption, "may corrupt the database on power loss"},
    {RiskLevel::kNotDurable, "keeps nothing: this path's syncs do not reach stable storage"},
};
static_assert(platform::OneRowPerValue(kLosses, sqlite_bench::kLastRiskLevel),
              "one phrase per RiskLevel");

std::string Loses(RiskLevel level) { return std::string(platform::TextIn(kLosses, level)); }

model::SummarySetting SettingOf(const model::Target& t, const model::SqliteEntry& e,
                                const model::SqliteEntry* base) {
  const CommitResult& r = e.result;
  model::SummarySetting s;
  s.label = fmt::format("{}/{} x{}", sqlite_bench::NameOf(r.config.journal),
                        sqlite_bench::NameOf(r.config.sync), r.config.rows_per_commit);
  s.commits_per_sec = r.commits_per_sec;
  if (base != nullptr && base->result.commits_per_sec > 0) {
    s.vs_default = r.commits_per_sec / base->result.commits_per_sec;
  }
  s.risk = e.risk.level;
  s.loses = Loses(s.risk);
  if (t.durability && t.durability->verdict == model::DurabilityVerdict::kUnproven &&
      s.risk != RiskLevel::kCorruption && s.risk != RiskLevel::kNotDurable) {
    s.loses += fmt::format(" if syncs reach stable storage (unproven: {})",
                           DecidingLayerName(*t.durability));
  }
  if (const sqlite_bench::CrashsimResult* c = CrashOf(t, r)) {
    s.loses += fmt::format(" (crashsim: {} of {} trials lost commits, at most {}; {} corrupt)",
                           c->trials_with_loss, c->trials, c->lost_commits_max, c->corrupt);
  }
  return s;
}

// A setting crashsim contradicts is not offered: corrupt images for a "safe" or "last commits"
// setting, or a lost commit for a "keeps every commit" one.
bool CrashsimAgrees(const model::Target& t, const CommitResult& r, bool keeps_all) {
  const sqlite_bench::CrashsimResult* c = CrashOf(t, r);
  if (c == nullptr) return true;
  return c->corrupt == 0 && (!keeps_all || c->trials_with_loss == 0);
}

void AddSqlite(const model::Target& t, model::PathSummary& s) {
  const model::SqliteEntry* base = nullptr;
  const model::SqliteEntry* safe = nullptr;
  const model::SqliteEntry* fast = nullptr;
  for (const model::SqliteEntry& e : t.sqlite) {
    const CommitResult& r = e.result;
    if (!Usable(r)) continue;
    if (IsDefault(r) && base == nullptr) base = &e;
    bool keeps_all = e.risk.level == RiskLevel::kNone && CrashsimAgrees(t, r, true);
    bool loses_last =
        (e.risk.level == RiskLevel::kRecentCommits || e.risk.level == RiskLevel::kLastCommit) &&
        CrashsimAgrees(t, r, false);
    if (keeps_all && (safe == nullptr || r.commits_per_sec > safe->result.commits_per_sec)) {
      safe = &e;
    }
    if (loses_last && (fast == nullptr || r.commits_per_sec > fast->result.commits_per_sec)) {
      fast = &e;
    }
  }
  if (base) s.sqlite_default = SettingOf(t, *base, base);
  if (safe) s.sqlite_safe = SettingOf(t, *safe, base);
  if (fast && (!safe || fast->result.commits_per_sec > safe->result.commits_per_sec)) {
    s.sqlite_fast = SettingOf(t, *fast, base);
  }
}

// The findings that matter most: fail before warn, then in the order analysis gave them; their
// codes, each explained under Findings.
std::vector<std::string> TopFindings(const std::vector<model::Finding>& findings) {
  std::vector<std::string> top;
  for (model::Severity level : {model::Severity::kFail, model::Severity::kWarn}) {
    for (const model::Finding& f : findings) {
      bool seen = std::find(top.begin(), top.end(), f.code) != top.end();
      if (f.severity == level && top.size() < 2 && !seen) top.push_back(f.code);
    }
  }
  return top;
}

std::string NextStep(const model::Target& t, const model::PathSummary& s) {
  if (t.durability && t.durability->verdict == model::DurabilityVerdict::kNotDurable) {
    return fmt::format(
        "keep databases off this path, or make its {} layer keep syncs; no setting makes a commit "
        "durable here",
        DecidingLayerName(*t.durability));
  }
  for (const model::Finding& f : t.findings) {
    if (f.severity == model::Severity::kFail) return "act on " + f.code + " (under Findings)";
  }
  if (t.sqlite.empty() && !t.crashsim.empty()) {
    std::size_t kept = 0;
    for (const sqlite_bench::CrashsimResult& c : t.crashsim) {
      kept += c.outcome == probes::Outcome::kOk && c.trials > 0 && c.corrupt == 0 &&
              c.trials_with_loss == 0;
    }
    return fmt::format(
        "crashsim lost nothing with {} of {} settings (table below); run `durprobe sqlite "
        "--crashsim {}` for their commit rates beside the losses",
        kept, t.crashsim.size(), text::ShellQuote(t.path));
  }
  if (t.sqlite.empty() && !t.probes.empty()) {
    return "run `durprobe sqlite " + text::ShellQuote(t.path) +
           "` for what a commit costs and which setting fits";
  }
  if (!t.durability || t.durability->verdict == model::DurabilityVerdict::kUnproven) {
    if (t.crashsim.empty()) {
      return "run `durprobe crashsim " + text::ShellQuote(t.path) +
             "` for what a power cut loses per setting";
    }
    return "prove the layer durprobe cannot see through (the drive's power-loss protection, "
           "the host's cache mode)";
  }
  if (s.sqlite_safe) return "use " + s.sqlite_safe->label + " (Settings to use, below)";
  return "read the tables below";
}

}  // namespace

model::PathSummary SummarizePath(const model::Target& t) {
  model::PathSummary s;
  s.what = t.mount ? WhatThePathIs(*t.mount) : "not inspected by this command";
  if (t.durability) s.durability = t.durability->verdict;
  s.durability_line = DurabilityLine(t.durability);
  if (const probes::ProbeResult* p = CostProbe(t.probes)) {
    const probes::LatencySummary& l = p->has_sync_part ? p->sync_latency : p->latency;
    s.sync_probe = fmt::format("{} {} {}", probes::NameOf(p->spec.primitive),
                               probes::NameOf(p->spec.pattern), model::SizeLabel(p->spec));
    s.sync_p50_ns = static_cast<double>(l.p50);
    if (std::optional<std::uint64_t> p99 = model::P99(l)) s.sync_p99_ns = static_cast<double>(*p99);
    s.synced_writes_per_sec = p->ops_per_sec;
    const std::size_t index = static_cast<std::size_t>(p - t.probes.data());
    // The sync call alone where the probe timed it apart and the state has samples of it.
    auto figures = [&](const model::StateFigures& f) {
      bool sync = p->has_sync_part && f.sync_ops > 0;
      std::uint64_t p99 = sync ? f.sync_p99_ns : f.p99_ns;
      return model::PathSummary::SlowState{
          static_cast<double>(sync ? f.sync_p50_ns : f.p50_ns),
          p99 > 0 ? std::optional<double>(static_cast<double>(p99)) : std::nullopt, f.time_share};
    };
    if (const model::StateFigures* slow =
            analysis::SawBothStates(t, index) ? analysis::SlowStateOf(t, index) : nullptr) {
      s.sync_slow_state = figures(*slow);
      if (const model::StateFigures* fast =
              analysis::StateOf(t, index, model::DeviceState::kFast)) {
        s.sync_fast_state = figures(*fast);
      }
    }
  }
  AddSqlite(t, s);
  s.findings = TopFindings(t.findings);
  s.next_step = NextStep(t, s);
  return s;
}

void AddPathSummary(model::Target& t) {
  // inspect alone measures nothing to summarise; its mount block says what the path is.
  if (t.probes.empty() && t.sqlite.empty() && t.crashsim.empty()) return;
  t.summary = SummarizePath(t);
  t.advice = AdviseTarget(t, *t.summary);
}

void AddPathSummaries(model::Report& report) {
  for (model::Target& t : report.targets) AddPathSummary(t);
}

}  // namespace durprobe::explain
