#include "explain/summary.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <tuple>

#include "gate/presets.h"
#include "platform/enum_table.h"
#include "text/units.h"

namespace durprobe::explain {
namespace {

using nlohmann::json;

// A latency the report did not have: the reader gives 0 for a percentile the writer left null
// (too few operations) or an older report lacked, and no real operation takes 0 ns.
std::optional<double> Latency(std::uint64_t ns) {
  if (ns == 0) return std::nullopt;
  return static_cast<double>(ns);
}

// The etcd preset's WAL probe as the preset measures it (fdatasync preallocated 1392 B at
// 150/s), so a check --preset etcd report is summarized by it.
probes::ProbeSpec EtcdWalSpec() {
  Result<gate::Policy> etcd = gate::Preset("etcd");
  return etcd.ok() && !etcd->latency.empty() ? etcd->latency.front().spec : probes::ProbeSpec{};
}

// The sync latency a fleet compares: etcd's WAL probe when the report has it (today's, or the
// 2300 B one of older reports), else fdatasync 4 KiB overwrite, else the first fdatasync, else
// the first synced probe.
const probes::ProbeResult* PickProbe(const std::vector<probes::ProbeResult>& probes) {
  using probes::Pattern;
  using probes::Primitive;
  static const probes::ProbeSpec etcd_wal = EtcdWalSpec();
  const probes::ProbeSpec older_etcd_wal{Primitive::kFdatasync, Pattern::kPreallocated, 2300};
  const probes::ProbeResult* best = nullptr;
  int best_rank = 99;
  for (const probes::ProbeResult& p : probes) {
    if (p.outcome != probes::Outcome::kOk || p.spec.primitive == Primitive::kNone) continue;
    const probes::ProbeSpec& s = p.spec;
    bool one_write = s.writes_per_op == 1;
    int rank = s == etcd_wal || s == older_etcd_wal                                       ? 0
               : s == probes::ProbeSpec{Primitive::kFdatasync, Pattern::kOverwrite, 4096} ? 1
               : s.primitive == Primitive::kFdatasync && one_write                        ? 2
                                                                                          : 3;
    if (rank < best_rank) {
      best = &p;
      best_rank = rank;
    }
  }
  return best;
}

}  // namespace

std::vector<SummaryRow> RowsFromReport(const model::Report& report, const std::string& file) {
  std::vector<SummaryRow> rows;
  for (const model::Target& t : report.targets) {
    SummaryRow row;
    row.file = file;
    row.host = report.context.host;
    row.started_at = report.context.started_at;
    row.path = t.path;
    if (t.mount) {
      row.fstype = t.mount->fstype;
      row.device = t.mount->device ? t.mount->device->name : t.mount->source;
    }
    if (const probes::ProbeResult* p = PickProbe(t.probes)) {
      const probes::LatencySummary& lat = p->has_sync_part ? p->sync_latency : p->latency;
      row.sync_p50_ns = Latency(lat.p50);
      row.sync_p99_ns = Latency(lat.p99);
      row.sync_probe = fmt::format("{} {} {}", probes::NameOf(p->spec.primitive),
                                   probes::NameOf(p->spec.pattern), p->spec.write_size);
    }
    for (const model::SqliteEntry& e : t.sqlite) {
      const sqlite_bench::CommitResult& r = e.result;
      if (r.config.rows_per_commit != 1 || r.outcome != probes::Outcome::kOk) continue;
      if (r.config.sync != sqlite_bench::Synchronous::kFull) continue;
      if (r.config.journal == sqlite_bench::JournalMode::kWal && !row.commits_wal_full) {
        row.commits_wal_full = r.commits_per_sec;
      }
      if (r.config.journal == sqlite_bench::JournalMode::kDelete && !row.commits_delete_full) {
        row.commits_delete_full = r.commits_per_sec;
      }
    }
    for (const model::Finding& f : t.findings) {
      if (f.severity != model::Severity::kInfo) row.findings.push_back(f.code);
      row.fail_finding |= f.severity == model::Severity::kFail;
    }
    if (t.durability) row.durability = t.durability->verdict;
    for (const model::CheckResult& c : report.checks) {
      bool failed = c.outcome == model::CheckOutcome::kFail ||
                    c.outcome == model::CheckOutcome::kError ||
                    c.outcome == model::CheckOutcome::kUnstable;
      if (c.path == row.path && failed) row.failed_rules.push_back(c.rule);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

constexpr platform::TextRow<SummarySort> kSummarySortNames[] = {
    {SummarySort::kWorst, "worst"},
    {SummarySort::kHost, "host"},
    {SummarySort::kPath, "path"},
    {SummarySort::kSyncP50, "sync_p50"},
    {SummarySort::kSyncP99, "sync_p99"},
    {SummarySort::kCommitsWalFull, "commits_wal_full"},
    {SummarySort::kCommitsDeleteFull, "commits_delete_full"},
    {SummarySort::kFailed, "failed"},
};
static_assert(platform::OneRowPerValue(kSummarySortNames, kLastSummarySort),
              "one name per SummarySort");

std::string_view NameOf(SummarySort key) { return platform::TextIn(kSummarySortNames, key); }

const std::vector<std::string>& SummarySortKeys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> names;
    for (int i = 0; !NameOf(static_cast<SummarySort>(i)).empty(); ++i) {
      names.emplace_back(NameOf(static_cast<SummarySort>(i)));
    }
    return names;
  }();
  return keys;
}

void SortRows(std::vector<SummaryRow>& rows, SummarySort key) {
  auto tie = [](const SummaryRow& a, const SummaryRow& b) {
    return std::tie(a.host, a.path) < std::tie(b.host, b.path);
  };
  // Missing values sort last whatever the direction.
  auto desc = [&](const std::optional<double>& x, const std::optional<double>& y,
                  const SummaryRow& a, const SummaryRow& b) {
    if (x.has_value() != y.has_value()) return x.has_value();
    if (x && *x != *y) return *x > *y;
    return tie(a, b);
  };
  auto asc = [&](const std::optional<double>& x, const std::optional<double>& y,
                 const SummaryRow& a, const SummaryRow& b) {
    if (x.has_value() != y.has_value()) return x.has_value();
    if (x && *x != *y) return *x < *y;
    return tie(a, b);
  };
  // A p99 too few operations could support is not small: its p50 is a floor under it, so such
  // a row sorts by its p50 (the console's note says so) rather than below every measured p99.
  auto p99 = [](const SummaryRow& r) { return r.sync_p99_ns ? r.sync_p99_ns : r.sync_p50_ns; };
  std::stable_sort(rows.begin(), rows.end(), [&](const SummaryRow& a, const SummaryRow& b) {
    switch (key) {
      case SummarySort::kHost:
        return tie(a, b);
      case SummarySort::kPath:
        return std::tie(a.path, a.host) < std::tie(b.path, b.host);
      case SummarySort::kSyncP50:
        return desc(a.sync_p50_ns, b.sync_p50_ns, a, b);
      case SummarySort::kSyncP99:
        return desc(p99(a), p99(b), a, b);
      case SummarySort::kCommitsWalFull:
        return asc(a.commits_wal_full, b.commits_wal_full, a, b);
      case SummarySort::kCommitsDeleteFull:
        return asc(a.commits_delete_full, b.commits_delete_full, a, b);
      case SummarySort::kWorst:
      case SummarySort::kFailed:
        break;  // below: failed rules first
    }
    if (a.failed_rules.size() != b.failed_rules.size()) {
      return a.failed_rules.size() > b.failed_rules.size();
    }
    // A path that keeps nothing, or has a fail-level finding, ranks above mere warnings.
    auto grave = [](const SummaryRow& r) {
      return r.durability == model::DurabilityVerdict::kNotDurable || r.fail_finding;
    };
    bool worst = key == SummarySort::kWorst;
    if (worst && grave(a) != grave(b)) return grave(a);
    if (worst && a.findings.size() != b.findings.size()) {
      return a.findings.size() > b.findings.size();
    }
    return desc(p99(a), p99(b), a, b);
  });
}

}  // namespace durprobe::explain
