// Figures measured once per repeat (--repeat N; the executor's run/repeated_samples.h): each
// figure's median over the repeats, which is the figure every format shows and the analysis
// reads, and its range between the repeats, which says how far the disk's state moved the
// figure from one run to the next (docs/accuracy.md "Repeats").
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "probes/histogram.h"
#include "probes/probe_result.h"
#include "sqlite_bench/commit_result.h"

namespace durprobe::model {

// One figure over the repeats that measured it.
struct RepeatSpread {
  double median = 0.0, min = 0.0, max = 0.0;
  std::uint32_t n = 0;  // repeats that measured the figure
  // Where one more run's figure should land, 95% of the time: a prediction interval from the
  // repeats' spread (see SpreadOf); both 0 where none is given.
  double next_low = 0.0, next_high = 0.0;
  bool operator==(const RepeatSpread&) const = default;
};
// The median (the mean of the middle two for an even count), the least and the greatest of
// values; n 0 and all 0 when empty. From three values on, also the next run's interval: on the
// logarithms (a figure is positive and moves by factors), mean -/+ t(0.975, n-1) * s *
// sqrt(1 + 1/n), never narrower than the least to the greatest; s is at least
// relative_resolution / sqrt(12) (a latency read off a histogram's bucket is known no better).
// None when the values differ by twofold or more: the runs caught the device in different
// states, and a spread of two levels predicts nothing (read the states' own figures).
RepeatSpread SpreadOf(const std::vector<double>& values, double relative_resolution = 0.0);
// A range is shown in place of the confidence interval from two repeats on.
inline bool Ranged(const RepeatSpread& s) { return s.n >= 2; }
// Whether the spread gives the next run's interval.
inline bool Predicted(const RepeatSpread& s) { return s.next_high > 0.0; }
// How closely a latency read off a histogram is known (its buckets' relative width).
inline constexpr double kLatencyResolution = 1.0 / probes::Histogram::kSubBuckets;
// Two runs predict no third: Student's t for one degree of freedom (12.7) spans decades.
inline constexpr std::size_t kMinPredictingRepeats = 3;
// How far apart (max / min) the repeats may lie for the next run to be predicted.
inline constexpr double kUnpredictableSpread = 2.0;

// A probe row's figures over the repeats, by its index in Target::probes (as DeviceMoved). A
// repeat's p99 counts only where its own operations support one (model/percentiles.h).
struct ProbeRepeats {
  std::size_t probe = 0;
  RepeatSpread p50_ns, p99_ns, ops_per_sec;
  bool operator==(const ProbeRepeats&) const = default;
};

// A SQLite row's figures over the repeats: each repeat's commits/s is the median of its own
// repetitions', as a single run's is.
struct SqliteRepeats {
  RepeatSpread commits_per_sec, p50_ns, p99_ns;
  bool operator==(const SqliteRepeats&) const = default;
};

// The repeats of the probe at index probe, or null when it has none (a run without --repeat).
const ProbeRepeats* FindRepeats(const std::vector<ProbeRepeats>& all, std::size_t probe);

// The spreads of one probe's repeats, each repeat's row on its own operations; repeats that
// timed no operation are left out.
ProbeRepeats ProbeRepeatsOf(std::size_t probe, const std::vector<probes::ProbeResult>& repeats);
// The spreads of one configuration's repeats: each repeat's commits/s and latency.
SqliteRepeats SqliteRepeatsOf(const std::vector<double>& commits_per_sec,
                              const std::vector<probes::LatencySummary>& latency);

// The row's figures made the repeats' medians: its p50, p99 and ops/s (a probe), its commits/s,
// rows/s, p50 and p99 (a configuration). Its distribution, operation count and confidence
// interval stay those of every repeat's operations together.
void UseMedians(probes::ProbeResult& row, const ProbeRepeats& repeats);
void UseMedians(sqlite_bench::CommitResult& row, const SqliteRepeats& repeats);

}  // namespace durprobe::model
