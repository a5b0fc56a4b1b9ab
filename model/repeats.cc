#include "model/repeats.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "model/percentiles.h"
#include "probes/statistics.h"

namespace durprobe::model {
namespace {

std::uint64_t Nanos(double ns) { return static_cast<std::uint64_t>(std::llround(ns)); }

// The next run's 95% interval on the logarithms of values (all positive, n >= 3).
void PredictNext(const std::vector<double>& values, double relative_resolution, RepeatSpread& s) {
  if (s.min <= 0.0 || s.max >= kUnpredictableSpread * s.min) return;
  const double n = static_cast<double>(values.size());
  double mean = 0.0;
  for (double v : values) mean += std::log(v);
  mean /= n;
  double squares = 0.0;
  for (double v : values) squares += (std::log(v) - mean) * (std::log(v) - mean);
  const double sd = std::max(std::sqrt(squares / (n - 1)), relative_resolution / std::sqrt(12.0));
  const double half = probes::StudentT975(static_cast<std::uint32_t>(values.size() - 1)) * sd *
                      std::sqrt(1.0 + 1.0 / n);
  s.next_low = std::min(s.min, std::exp(mean - half));
  s.next_high = std::max(s.max, std::exp(mean + half));
}

// The spread of the latency summaries' p50 and p99, each p99 only where its count supports it.
void LatencySpreads(const std::vector<probes::LatencySummary>& latency, RepeatSpread& p50,
                    RepeatSpread& p99) {
  std::vector<double> p50s, p99s;
  for (const probes::LatencySummary& l : latency) {
    if (l.count == 0) continue;
    p50s.push_back(static_cast<double>(l.p50));
    if (std::optional<std::uint64_t> v = P99(l)) p99s.push_back(static_cast<double>(*v));
  }
  p50 = SpreadOf(p50s, kLatencyResolution);
  p99 = SpreadOf(p99s, kLatencyResolution);
}

}  // namespace

RepeatSpread SpreadOf(const std::vector<double>& values, double relative_resolution) {
  if (values.empty()) return {};
  auto [min, max] = std::minmax_element(values.begin(), values.end());
  RepeatSpread s{probes::Median(values), *min, *max, static_cast<std::uint32_t>(values.size())};
  if (values.size() >= kMinPredictingRepeats) PredictNext(values, relative_resolution, s);
  return s;
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

}  // namespace durprobe::model
