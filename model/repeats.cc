#include "model/repeats.h"

#include <algorithm>
#include <cmath>

#include "model/percentiles.h"
#include "probes/statistics.h"

namespace durprobe::report {
namespace {

std::uint64_t Nanos(double ns) { return static_cast<std::uint64_t>(std::llround(ns)); }

// The spread of the latency summaries' p50 and p99, each p99 only where its count supports it.
void LatencySpreads(const std::vector<probes::LatencySummary>& latency, RepeatSpread& p50,
                    RepeatSpread& p99) {
  std::vector<double> p50s, p99s;
  for (const probes::LatencySummary& l : latency) {
    if (l.count == 0) continue;
    p50s.push_back(static_cast<double>(l.p50));
    if (std::optional<std::uint64_t> v = P99(l)) p99s.push_back(static_cast<double>(*v));
  }
  p50 = SpreadOf(p50s);
  p99 = SpreadOf(p99s);
}

}  // namespace

RepeatSpread SpreadOf(const std::vector<double>& values) {
  if (values.empty()) return {};
  auto [min, max] = std::minmax_element(values.begin(), values.end());
  return {probes::Median(values), *min, *max, static_cast<std::uint32_t>(values.size())};
}

const ProbeRepeats* FindRepeats(const std::vector<ProbeRepeats>& all, std::size_t probe) {
  for (const ProbeRepeats& r : all) {
    if (r.probe == probe) return &r;
  }
  return nullptr;
}

ProbeRepeats ProbeRepeatsOf(std::size_t probe, const std::vector<probes::ProbeResult>& repeats) {
  ProbeRepeats out{.probe = probe};
  std::vector<probes::LatencySummary> latency;
  std::vector<double> rates;
  for (const probes::ProbeResult& r : repeats) {
    if (r.ops == 0) continue;
    latency.push_back(r.latency);
    rates.push_back(r.ops_per_sec);
  }
  LatencySpreads(latency, out.p50_ns, out.p99_ns);
  out.ops_per_sec = SpreadOf(rates);
  return out;
}

SqliteRepeats SqliteRepeatsOf(const std::vector<double>& commits_per_sec,
                              const std::vector<probes::LatencySummary>& latency) {
  SqliteRepeats out;
  std::vector<double> rates;
  for (double r : commits_per_sec) {
    if (r > 0) rates.push_back(r);
  }
  out.commits_per_sec = SpreadOf(rates);
  LatencySpreads(latency, out.p50_ns, out.p99_ns);
  return out;
}

void UseMedians(probes::ProbeResult& row, const ProbeRepeats& repeats) {
  if (repeats.p50_ns.n > 0) row.latency.p50 = Nanos(repeats.p50_ns.median);
  if (repeats.p99_ns.n > 0) row.latency.p99 = Nanos(repeats.p99_ns.median);
  if (repeats.ops_per_sec.n > 0) row.ops_per_sec = repeats.ops_per_sec.median;
}

void UseMedians(sqlite_bench::CommitResult& row, const SqliteRepeats& repeats) {
  if (repeats.commits_per_sec.n > 0) {
    row.commits_per_sec = repeats.commits_per_sec.median;
    row.rows_per_sec = row.commits_per_sec * static_cast<double>(row.config.rows_per_commit);
  }
  if (repeats.p50_ns.n > 0) row.latency.p50 = Nanos(repeats.p50_ns.median);
  if (repeats.p99_ns.n > 0) row.latency.p99 = Nanos(repeats.p99_ns.median);
}

}  // namespace durprobe::report
