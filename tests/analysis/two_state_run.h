// A synthetic run on a device with two states (tests/analysis): 100 ms windows of operations
// around a level, probes over a sequence of levels, reference samples, and TwoStateRun, a run
// whose device is at 100 us, then at 4 ms from 10 s to 30 s, then at 100 us again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "model/report.h"
#include "probes/histogram.h"

namespace durprobe::analysis::two_state_run {

using probes::Pattern;
using probes::Primitive;

inline constexpr std::uint64_t kStateSec = 1'000'000'000;
inline constexpr std::uint64_t kWindowNs = 100'000'000;
inline constexpr probes::ProbeSpec kStatesSpec{Primitive::kFdatasync, Pattern::kOverwrite, 4096};

// n values around level, +/- spread (uniform, seeded).
inline std::vector<double> Around(std::size_t n, double level, double spread, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-spread, spread);
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(level * (1.0 + u(rng)));
  return v;
}

// One 100 ms window of `ops` operations around level: the whole operation is level + 10 us,
// the sync call level.
inline probes::SeriesPoint StateWindow(std::uint64_t start, std::size_t ops, double level,
                                       unsigned seed) {
  probes::Histogram whole, sync;
  for (double v : Around(ops, level, 0.1, seed)) {
    whole.Record(std::uint64_t(v) + 10'000);
    sync.Record(std::uint64_t(v));
  }
  return {start,
          whole.count(),
          probes::Percentile(whole, 0.5),
          whole.mean(),
          probes::NonEmptyBuckets(whole),
          probes::NonEmptyBuckets(sync)};
}

// A probe whose windows follow levels (one per window, `ops` operations each), from t0.
inline probes::ProbeResult ProbeOver(const std::vector<double>& levels, std::size_t ops,
                                     std::uint64_t t0) {
  probes::ProbeResult r;
  r.spec = kStatesSpec;
  r.has_sync_part = true;
  probes::Histogram whole, sync;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    r.series.push_back(StateWindow(t0 + i * kWindowNs, ops, levels[i], unsigned(i) + 7));
    probes::AddBuckets(whole, r.series.back().buckets);
    probes::AddBuckets(sync, r.series.back().sync_buckets);
  }
  r.ops = whole.count();
  r.latency = probes::Summarize(whole);
  r.sync_latency = probes::Summarize(sync);
  r.histogram = probes::NonEmptyBuckets(whole);
  r.sync_histogram = probes::NonEmptyBuckets(sync);
  return r;
}

inline void AddReference(testing_support::Target& t, std::uint64_t at, double level) {
  t.reference.push_back({at, "x", 40, std::uint64_t(level), level});
}

// A run on a device at 100 us, then at 4 ms from 10 s to 30 s, then at 100 us again: probe 0 ran
// across the change at 10 s (8 fast windows, 8 slow ones), probe 1 wholly inside the slow stretch,
// probe 2 from the slow stretch into the fast one (the samples around it disagree).
inline model::Target TwoStateRun() {
  model::Target t;
  t.path = "/data";
  t.reference_probe = "fdatasync overwrite 4 KiB";
  AddReference(t, 0, 110'000);
  AddReference(t, 9 * kStateSec, 95'000);
  AddReference(t, 12 * kStateSec, 4'100'000);
  AddReference(t, 20 * kStateSec, 3'900'000);
  AddReference(t, 28 * kStateSec, 4'000'000);
  AddReference(t, 32 * kStateSec, 105'000);
  AddReference(t, 40 * kStateSec, 100'000);
  std::vector<double> across(8, 100'000.0);
  across.insert(across.end(), 8, 4'000'000.0);
  t.probes.push_back(ProbeOver(across, 20, 9 * kStateSec + 200'000'000));
  t.probes.push_back(ProbeOver(std::vector<double>(6, 4'000'000.0), 20, 21 * kStateSec));
  t.probes.push_back(ProbeOver(std::vector<double>(6, 4'000'000.0), 20, 29 * kStateSec));
  return t;
}

}  // namespace durprobe::analysis::two_state_run
