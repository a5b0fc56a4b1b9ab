// AdviseTarget (explain/path_advice.h): the settings to use, each citing its
// measurement. SQLite from the commit matrix (and crashsim), PostgreSQL from the wal_sync_method
// comparison, etcd from its preset's rules.
#include "explain/path_advice.h"

#include <fmt/format.h>

#include <optional>

#include "analysis/device_flushes.h"
#include "gate/presets.h"
#include "gate/rules.h"
#include "gate/wal_sync_method.h"
#include "model/labels.h"
#include "text/shell_quote.h"
#include "text/units.h"

namespace durprobe::explain {
namespace {

std::string PragmaOf(const std::string& label) {  // "WAL/FULL x1" -> the two pragmas
  std::size_t slash = label.find('/'), space = label.find(' ');
  return fmt::format("journal_mode={}, synchronous={}", label.substr(0, slash),
                     label.substr(slash + 1, space - slash - 1));
}

std::string Rate(const model::SummarySetting& s) {
  std::string rate =
      fmt::format("sqlite {}: {} commits/s", s.label, text::FormatRate(s.commits_per_sec));
  if (s.vs_default) rate += fmt::format(", {} DELETE/FULL x1", text::FormatRatio(*s.vs_default));
  return rate;
}

void SqliteAdvice(const model::Target& t, const model::PathSummary& s,
                  std::vector<model::PathAdvice>& out) {
  bool void_path = t.durability && t.durability->verdict == model::DurabilityVerdict::kNotDurable;
  if (void_path) {
    out.push_back({"sqlite", "none keeps commits here",
                   "the path is not durable, so every journal mode and synchronous level keeps "
                   "only what the page cache keeps",
                   "durability: " + s.durability_line});
    return;
  }
  if (s.sqlite_safe) {
    out.push_back({"sqlite", PragmaOf(s.sqlite_safe->label),
                   "the fastest measured setting that " + s.sqlite_safe->loses,
                   Rate(*s.sqlite_safe)});
  }
  if (s.sqlite_fast) {
    out.push_back(
        {"sqlite", PragmaOf(s.sqlite_fast->label),
         "faster still where losing the last commits is acceptable: it " + s.sqlite_fast->loses,
         Rate(*s.sqlite_fast)});
  }
  // Rows per transaction: the fastest batch against single-row commits of the same setting.
  auto same_setting = [](const sqlite_bench::CommitResult& a, const sqlite_bench::CommitResult& b) {
    return a.config.journal == b.config.journal && a.config.sync == b.config.sync;
  };
  const model::SqliteEntry* single = nullptr;
  const model::SqliteEntry* batch = nullptr;
  for (const model::SqliteEntry& e : t.sqlite) {
    const sqlite_bench::CommitResult& r = e.result;
    if (r.outcome != probes::Outcome::kOk || r.commits == 0 || r.config.rows_per_commit < 2) {
      continue;
    }
    for (const model::SqliteEntry& one : t.sqlite) {
      const sqlite_bench::CommitResult& o = one.result;
      bool pair = o.outcome == probes::Outcome::kOk && o.commits > 0 &&
                  o.config.rows_per_commit == 1 && same_setting(o, r) &&
                  r.rows_per_sec > o.rows_per_sec;
      if (pair && (!batch || r.rows_per_sec > batch->result.rows_per_sec)) {
        batch = &e;
        single = &one;
      }
    }
  }
  if (batch) {
    const sqlite_bench::CommitResult& b = batch->result;
    out.push_back(
        {"sqlite", fmt::format("{} rows per transaction", b.config.rows_per_commit),
         "the syncs are paid once per commit, so rows that may share a commit should",
         fmt::format("sqlite {}/{} x{}: {} rows/s against {} rows/s one row per commit",
                     sqlite_bench::NameOf(b.config.journal), sqlite_bench::NameOf(b.config.sync),
                     b.config.rows_per_commit, text::FormatRate(b.rows_per_sec),
                     text::FormatRate(single->result.rows_per_sec))});
  }
  if (out.empty() && t.sqlite.empty()) {
    out.push_back({"sqlite", "not measured", "no SQLite configuration ran on this path",
                   "run `durprobe sqlite " + text::ShellQuote(t.path) + "`"});
  }
}

// The primitive a wal_sync_method syncs its WAL with, as the preset measures it.
std::optional<probes::Primitive> PrimitiveOf(const std::string& method) {
  for (const gate::WalSyncCell& c : gate::WalSyncCells()) {
    if (c.method == method) return c.spec.primitive;
  }
  return std::nullopt;
}

// Where the flush counters saw the syncs of `method` (the one chosen, or PostgreSQL's default)
// reach no device: the first of `candidates` whose syncs did reach one instead, or that no
// method keeps the WAL. Nothing when method's syncs were not seen to reach no device.
std::optional<model::PathAdvice> AvoidDroppedSync(const model::Target& t, const std::string& method,
                                                  const std::vector<std::string>& candidates) {
  const std::vector<analysis::SyncFlushes> evidence = analysis::SyncFlushEvidence(t);
  std::optional<probes::Primitive> dropped = PrimitiveOf(method);
  if (!dropped || !ReachedNoDevice(evidence, *dropped)) return std::nullopt;
  for (const std::string& other : candidates) {
    std::optional<probes::Primitive> p = PrimitiveOf(other);
    if (p && ReachedADevice(evidence, *p)) {
      return model::PathAdvice{
          "postgresql", "wal_sync_method=" + other,
          fmt::format("{}'s syncs reached no device here, so a WAL flushed with it "
                      "is lost on power loss; {}'s reached the device",
                      method, other),
          NoFlushSummary(evidence)};
    }
  }
  return model::PathAdvice{
      "postgresql", "none keeps the WAL here",
      fmt::format("{}'s syncs reached no device here and no other method's was "
                  "seen to reach one",
                  method),
      NoFlushSummary(evidence)};
}

void PostgresAdvice(const model::Target& t, std::vector<model::PathAdvice>& out) {
  gate::WalSyncChoice choice = gate::ChooseWalSyncMethod(t);
  std::vector<std::string> ranked;
  for (const gate::WalSyncChoice::Ranked& r : choice.ranked) ranked.push_back(r.method);
  // Unranked, PostgreSQL's default first, then the methods in its documentation's order.
  if (ranked.empty()) ranked = {"fdatasync", "fsync", "open_datasync", "open_sync"};
  std::optional<model::PathAdvice> avoid =
      AvoidDroppedSync(t, choice.method.empty() ? "fdatasync" : choice.method, ranked);
  if (avoid) {
    out.push_back(std::move(*avoid));
    return;
  }
  if (!choice.method.empty()) {
    out.push_back({"postgresql", "wal_sync_method=" + choice.method,
                   choice.kept_default
                       ? "PostgreSQL's default: no method beat it clearly here"
                       : "the method with the least time for one- and two-block WAL flushes here",
                   gate::RecommendWalSyncMethod(t).message});
    return;
  }
  out.push_back({"postgresql", "not measured",
                 "the wal_sync_method comparison (pg_test_fsync's probes) did not run here",
                 "run `durprobe check --preset postgres-wal " + text::ShellQuote(t.path) + "`"});
}

void EtcdAdvice(const model::Target& t, std::vector<model::PathAdvice>& out) {
  Result<gate::Policy> etcd = gate::Preset("etcd");
  if (!etcd.ok()) return;
  model::Report one;
  one.targets.push_back(t);
  one.targets.back().summary.reset();
  std::vector<model::CheckResult> results = EvaluatePolicy(*etcd, one);
  const model::CheckResult* failed = nullptr;
  const model::CheckResult* missing = nullptr;
  const model::CheckResult* undecided = nullptr;
  std::size_t passed = 0;
  for (const model::CheckResult& c : results) {
    if (c.outcome == model::CheckOutcome::kFail && !failed) failed = &c;
    if (c.outcome == model::CheckOutcome::kError && !missing) missing = &c;
    if (c.outcome == model::CheckOutcome::kUnstable && !undecided) undecided = &c;
    passed += c.outcome == model::CheckOutcome::kPass;
  }
  if (failed) {
    out.push_back(
        {"etcd", "does not fit",
         fmt::format("the etcd preset's rule {} fails (docs/provisioning.md)", failed->rule),
         failed->message});
  } else if (missing) {
    // The probe named as the preset measures it, so the words follow the preset.
    std::string probe =
        etcd->latency.empty() ? "" : " (" + model::ProbeLabel(etcd->latency[0].spec) + ")";
    out.push_back({"etcd", "not measured", "etcd's WAL probe" + probe + " did not run here",
                   "run `durprobe check --preset etcd " + text::ShellQuote(t.path) + "`"});
  } else if (undecided) {
    // A rule that could not be decided (too few operations, or the device moved) is no pass.
    out.push_back({"etcd", "cannot tell",
                   fmt::format("the etcd preset's rule {} is not decided by this run ({} of {} "
                               "rules pass)",
                               undecided->rule, passed, results.size()),
                   undecided->message});
  } else if (passed > 0) {
    out.push_back({"etcd", "fits",
                   fmt::format("every rule of the etcd preset passes ({} rules)", passed),
                   results.front().rule + ": " + results.front().message});
  }
}

}  // namespace

std::vector<model::PathAdvice> AdviseTarget(const model::Target& t, const model::PathSummary& s) {
  std::vector<model::PathAdvice> out;
  SqliteAdvice(t, s, out);
  PostgresAdvice(t, out);
  EtcdAdvice(t, out);
  return out;
}

}  // namespace durprobe::explain
