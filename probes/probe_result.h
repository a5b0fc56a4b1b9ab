// The plain data a probe run produces. Reporters format it; analysis reads it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "platform/cgroup_cpu.h"
#include "platform/status.h"
#include "probes/flush_tally.h"
#include "probes/probe_spec.h"
#include "probes/statistics.h"

namespace durprobe::probes {

// One window of a probe's timed phase (probes/timed_loop.h kSeriesWindowNs): when it started
// (monotonic ns; the executor rebases it to the run's start) and its operations' latency, so
// drift during a probe can be found after the fact (analysis/drift.h).
struct SeriesPoint {
  std::uint64_t start_ns = 0;
  std::uint64_t ops = 0;
  std::uint64_t p50_ns = 0;
  double mean_ns = 0.0;
  // The window's distributions (non-empty buckets), the whole operation's and the sync call's
  // where it is timed apart, so the figures of one device state can be read from the windows
  // spent in it (analysis/device_states.h). Kept in memory only: not in the JSON.
  std::vector<HistogramBucket> buckets, sync_buckets;
  // Which repeat measured it (--repeat N, from 0), so a state's figures can be had per repeat.
  // In memory only, as the buckets.
  std::uint32_t repeat = 0;
  bool operator==(const SeriesPoint&) const = default;
};

// How a probe met the CPU: the quota it ran under, its waits (pacing, work) spun and slept, and
// the cgroup's throttling over its timed phase (probes/spin_budget.h).
struct CpuUse {
  double quota_cpus = 0.0;     // the CPU quota in CPUs; 0: none
  std::uint64_t spun_ns = 0;   // waits spent spinning
  std::uint64_t slept_ns = 0;  // waits slept because the quota could not pay for a spin
  bool counted = false;        // the throttling counters were read before and after
  platform::CpuThrottleCount throttling;
  bool throttled() const { return counted && throttling.throttled > 0; }
  // "spin": every wait spun; "sleep_then_spin": under a quota, waits slept what it could not
  // pay for, then spun; "" when the probe had no waits.
  std::string_view wait() const {
    return slept_ns > 0 ? "sleep_then_spin" : spun_ns > 0 ? "spin" : "";
  }
  bool operator==(const CpuUse&) const = default;
};

enum class Outcome { kOk, kUnsupported, kError, kInterrupted };
// The last enumerator, up to which NameOf's table is counted: one added after it moves this.
inline constexpr Outcome kLastOutcome = Outcome::kInterrupted;
std::string_view NameOf(Outcome o);
// The outcome a failed status stands for (unsupported, interrupted, or else an error).
Outcome OutcomeOf(const Status& s);

struct ProbeResult {
  ProbeSpec spec;
  Outcome outcome = Outcome::kOk;
  std::string reason;     // why unsupported, or the error with its errno text
  std::string caveat;     // CaveatOf(primitive), when it has one
  std::uint64_t ops = 0;  // timed operations, warm-up excluded
  std::uint64_t warmup_ops = 0;
  double seconds = 0.0;                 // wall time of the timed phase
  double ops_per_sec = 0.0;             // ops / seconds
  bool converged = false;               // the median's confidence interval met the target
  LatencySummary latency;               // one whole operation (write + sync, or create + dir fsync)
  bool has_sync_part = false;           // false for none and the O_*SYNC writes (sync is the write)
  LatencySummary sync_latency;          // the sync call alone
  std::uint64_t sync_sample_every = 1;  // 1: every operation's sync timed; N: one in N (fast ops)
  // The whole operation's distribution (latency's histogram), non-empty buckets only, so a saved
  // report can draw the CDF on another host.
  std::vector<HistogramBucket> histogram;
  // The sync call's own distribution, for rules that count slow syncs (check); not in the JSON.
  std::vector<HistogramBucket> sync_histogram;
  // Latency over time, one point per window of the timed phase (several rounds in compare).
  std::vector<SeriesPoint> series;
  CpuUse cpu;
  // What the devices under the path completed during the timed phase, against its control.
  FlushTally device_flushes;
};

}  // namespace durprobe::probes
