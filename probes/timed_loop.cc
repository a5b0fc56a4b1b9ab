#include "probes/timed_loop.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "platform/interrupt.h"
#include "probes/spin_budget.h"
#include "probes/statistics.h"

namespace durprobe::probes {
namespace {

constexpr std::uint64_t kCheckEveryNs = 20'000'000;  // how often the stop rule is evaluated

Status InterruptStatus() {
  int sig = platform::InterruptSignal();
  return sig == 0 ? Status::Ok() : Status::Interrupted(sig);
}

// Cuts the timed phase into windows of kSeriesWindowNs and keeps each one's latency.
class SeriesRecorder {
 public:
  explicit SeriesRecorder(std::uint64_t start_ns) : window_start_(start_ns) {}

  // sync_ns: the sync call's time when this operation's sync was timed apart, else nullopt.
  void Record(std::uint64_t latency_ns, std::optional<std::uint64_t> sync_ns, std::uint64_t now_ns,
              std::vector<SeriesPoint>& out) {
    window_.Record(latency_ns);
    if (sync_ns) sync_.Record(*sync_ns);
    if (now_ns - window_start_ < kSeriesWindowNs) return;
    Flush(out);
    window_start_ = now_ns;
  }

  void Flush(std::vector<SeriesPoint>& out) {
    if (window_.count() == 0) return;
    out.push_back({window_start_, window_.count(), Percentile(window_, 0.5), window_.mean(),
                   NonEmptyBuckets(window_), NonEmptyBuckets(sync_)});
    window_.Clear();
    sync_.Clear();
  }

 private:
  std::uint64_t window_start_;
  Histogram window_, sync_;
};

// The database's own work before its next commit (StopRule::work_ns), part of the elapsed time:
// one spin on the CPU, or round trips to the partner, each side spinning its share. Under a CPU
// quota the part the budget cannot pay for is slept first. Sets the time the next operation
// starts.
Status Work(platform::Platform& platform, const StopRule& rule, SpinBudget& budget,
            platform::Platform::Partner* partner, std::uint64_t& start_ns) {
  Status s = Status::Ok();
  if (partner != nullptr) {
    const std::uint64_t spin = budget.Take(rule.work_ns);
    if (spin < rule.work_ns) {
      platform.SleepNanos(rule.work_ns - spin);
      budget.NoteSlept(rule.work_ns - spin);
    }
    // Each trip's sides share what is left of the work, so the messages' own wake-ups count in
    // it and the whole takes work_ns, as the transaction measured whole did.
    const std::uint64_t from = platform.NowNanos();
    const std::uint64_t until = from + spin;
    for (std::uint32_t i = 0; i < rule.work_round_trips && s.ok(); ++i) {
      const std::uint64_t now = platform.NowNanos();
      const std::uint64_t left = until > now ? until - now : 0;
      s = partner->RoundTrip(left / (2 * (rule.work_round_trips - i)));
    }
    budget.NoteSpun(std::min(spin, platform.NowNanos() - from));
  } else if (rule.work_ns > 0) {
    budget.Wait(rule.work_ns);
  }
  start_ns = platform.NowNanos();
  return s;
}

// The throttling counters now, or nothing where no quota applies or they cannot be read.
std::optional<platform::CpuThrottleCount> Throttling(platform::Platform& platform,
                                                     const platform::CpuQuota& quota) {
  if (!quota.limited()) return std::nullopt;
  Result<platform::CpuThrottleCount> c = platform.ReadCpuThrottling(quota);
  if (!c.ok()) return std::nullopt;
  return *c;
}

// After a timed slice: the same writes without the sync, as many as the slice had operations
// but for at most max_ns, then an idle slice of max_ns (probes/flush_tally.h). Untimed.
void RunControl(platform::Platform& platform, ProbeOp& op, FlushCounter& counter,
                std::uint64_t want_ops, std::uint64_t max_ns) {
  const std::uint64_t from = platform.NowNanos();
  std::uint64_t done = 0;
  Status s = Status::Ok();
  while (done < want_ops) {
    s = op.RunControl();
    if (!s.ok()) break;
    ++done;
    if (op.NeedsMaintenance()) s = op.Maintain();
    if (!s.ok() || platform.NowNanos() - from >= max_ns) break;
  }
  if (!s.ok()) {
    counter.NoteControl(s.unsupported() ? s.message() : "the control failed: " + s.message());
  }
  counter.EndControl(done, platform.NowNanos() - from);
  counter.Idle(max_ns);
}

// StopRule::flush_count_decides: more control while the count does not decide, in chunks of a
// series window, for at most twice the timed time and until rule.settle_until_ns. Returns the
// time it took.
std::uint64_t SettleFlushCount(platform::Platform& platform, ProbeOp& op, FlushCounter& counter,
                               const StopRule& rule) {
  if (!counter.active() || rule.flush_count_decides == nullptr) return 0;
  const std::uint64_t from = platform.NowNanos();
  const std::uint64_t most = 2 * counter.tally().ns;
  for (std::uint64_t now = from; !rule.flush_count_decides(counter.tally());
       now = platform.NowNanos()) {
    const std::uint64_t spent = now - from;
    if (spent >= most || (rule.settle_until_ns != 0 && now >= rule.settle_until_ns)) break;
    if (!InterruptStatus().ok() || !counter.tally().control_note.empty()) break;
    std::uint64_t chunk = std::min(kSeriesWindowNs, (most - spent) / 2);
    if (rule.settle_until_ns != 0) chunk = std::min(chunk, (rule.settle_until_ns - now) / 2);
    if (chunk == 0) break;
    RunControl(platform, op, counter, std::numeric_limits<std::uint64_t>::max(), chunk);
  }
  return platform.NowNanos() - from;
}

}  // namespace

bool TargetsMet(const Histogram& total, const StopRule& rule) {
  if (MedianConfidenceInterval(total).relative_half_width > rule.target_ci) return false;
  if (rule.tail_target_ci <= 0.0) return true;
  return total.count() >= kTailMinOps &&
         QuantileConfidenceInterval(total, 0.99).relative_half_width <= rule.tail_target_ci;
}

LoopOutcome RunTimedLoop(platform::Platform& platform, ProbeOp& op, const StopRule& rule) {
  LoopOutcome out;
  const platform::CpuQuota quota = platform.ReadCpuQuota();
  SpinBudget budget(platform, quota);
  out.cpu.quota_cpus = quota.cpus();
  std::unique_ptr<platform::Platform::Partner> partner;
  if (rule.work_ns > 0 && rule.work_round_trips > 0) {
    Result<std::unique_ptr<platform::Platform::Partner>> p = platform.StartPartner();
    if (!p.ok()) {
      out.status = p.status();
      return out;
    }
    partner = std::move(*p);
  }
  OpTiming timing;
  std::uint64_t warm_start = platform.NowNanos();
  std::uint64_t warm_ns = 0;
  timing.start_ns = warm_start;
  while (out.warmup_ops < rule.warmup_ops && timing.start_ns - warm_start < rule.warmup_ns) {
    out.status = op.RunOnce(&timing);
    warm_ns += timing.end_ns - timing.start_ns;
    if (out.status.ok() && op.NeedsMaintenance()) out.status = op.Maintain();
    if (out.status.ok()) out.status = InterruptStatus();
    if (!out.status.ok()) return out;
    ++out.warmup_ops;
    out.status = Work(platform, rule, budget, partner.get(), timing.start_ns);
    if (!out.status.ok()) return out;
  }

  const bool timed_sync = op.has_sync_part();
  out.has_sync_part = timed_sync;
  if (out.warmup_ops > 0 && warm_ns / out.warmup_ops < kFastOpNs) {
    out.sync_sample_every = kSyncSampleEvery;
  }
  const std::optional<platform::CpuThrottleCount> throttled_before = Throttling(platform, quota);
  const std::uint64_t start = platform.NowNanos();
  std::uint64_t next_check = start + kCheckEveryNs;
  std::uint64_t untimed_ns = 0;  // maintenance and stop-rule checks inside the timed phase
  timing = OpTiming{.start_ns = start};
  std::uint64_t paced_at = start;  // when the current paced operation was due
  SeriesRecorder series(start);
  FlushCounter flushes(platform, rule.flush_counting);
  std::uint64_t slice_start = start;
  std::uint64_t slice_ops = 0;
  // Ends the timed slice at now, runs its control and idle slice, and starts the next slice.
  auto end_slice = [&](std::uint64_t now) {
    flushes.EndTimed(slice_ops, now - slice_start);
    RunControl(platform, op, flushes, slice_ops, (now - slice_start) / kControlShare);
    const std::uint64_t after = platform.NowNanos();
    untimed_ns += after - now;
    slice_start = after;
    slice_ops = 0;
    return after;
  };
  for (;;) {
    timing.time_sync = out.ops % out.sync_sample_every == 0;
    out.status = op.RunOnce(&timing);
    if (!out.status.ok()) break;
    out.total.Record(timing.end_ns - timing.start_ns);
    if (timed_sync && timing.time_sync) out.sync.Record(timing.sync_ns);
    ++out.ops;
    ++slice_ops;
    std::uint64_t now = timing.end_ns;
    series.Record(timing.end_ns - timing.start_ns,
                  timed_sync && timing.time_sync ? std::optional(timing.sync_ns) : std::nullopt,
                  now, out.series);
    if (op.NeedsMaintenance()) {
      out.status = op.Maintain();
      if (!out.status.ok()) break;
      now = platform.NowNanos();
      untimed_ns += now - timing.end_ns;
    }
    timing.sync_ns = 0;
    if (flushes.active() && now - slice_start >= kSeriesWindowNs) now = end_slice(now);

    const bool reserve_met =
        (out.ops >= rule.reserved_ops ||
         (rule.reserve_until_ns != 0 && now >= rule.reserve_until_ns)) &&
        (out.ops >= rule.evidence_ops ||
         (rule.evidence_until_ns != 0 && now >= rule.evidence_until_ns));
    if (reserve_met &&
        (now - start >= rule.max_ns || (rule.max_ops != 0 && out.ops >= rule.max_ops))) {
      break;
    }
    const bool check = now >= next_check;
    if (check) {
      next_check = now + kCheckEveryNs;
      out.status = InterruptStatus();
      if (!out.status.ok()) break;
      // A converged probe also has the operations and timed time its interval is shown from,
      // and its reserve (a claim read from a count: check's p99 from 367).
      bool ci_supported = !rule.ci_shown ||
                          CiSupported(out.ops, static_cast<double>(now - start - untimed_ns) / 1e9);
      if (reserve_met && out.ops >= rule.min_ops && now - start >= rule.min_ns && ci_supported &&
          TargetsMet(out.total, rule)) {
        out.converged = true;
        break;
      }
    }
    // The next operation's clock starts after the loop's own work (recording this operation,
    // maintenance, the stop-rule check), so none of it lands in an operation's latency.
    // Maintenance and checks are left out of the elapsed time as well; recording (tens of ns)
    // stays in it, as the price of the loop's throughput.
    timing.start_ns = platform.NowNanos();
    if (check) untimed_ns += timing.start_ns - now;
    if (rule.work_ns > 0) {
      out.status = Work(platform, rule, budget, partner.get(), timing.start_ns);
      if (!out.status.ok()) break;
    }
    if (rule.pace_ns > 0) {
      paced_at += rule.pace_ns;
      if (timing.start_ns < paced_at) {
        budget.Wait(paced_at - timing.start_ns);
        std::uint64_t woke = platform.NowNanos();
        untimed_ns += woke - timing.start_ns;
        timing.start_ns = woke;
      } else {
        paced_at = timing.start_ns;  // late: the pace restarts here rather than bursting
      }
    }
  }
  series.Flush(out.series);
  if (flushes.active() && slice_ops > 0) end_slice(platform.NowNanos());
  if (out.status.ok()) untimed_ns += SettleFlushCount(platform, op, flushes, rule);
  out.flushes = flushes.tally();
  out.wall_ns = platform.NowNanos() - start;
  if (std::optional<platform::CpuThrottleCount> after = Throttling(platform, quota);
      after && throttled_before) {
    out.cpu.counted = true;
    out.cpu.throttling = platform::Difference(*throttled_before, *after);
  }
  out.cpu.spun_ns = budget.spun_ns();
  out.cpu.slept_ns = budget.slept_ns();
  out.elapsed_ns = out.wall_ns - untimed_ns;
  if (!out.converged && out.status.ok()) {
    out.converged = CiSupported(out.ops, static_cast<double>(out.elapsed_ns) / 1e9) &&
                    TargetsMet(out.total, rule);
  }
  return out;
}

LoopOutcome Measure(platform::Platform& platform, ProbeOp& op, const StopRule& rule) {
  Status setup = op.Setup();
  if (!setup.ok()) {
    (void)op.Teardown();  // the setup's failure is the one to report; teardown only cleans up
    LoopOutcome out;
    out.status = setup;
    return out;
  }
  LoopOutcome out = RunTimedLoop(platform, op, rule);
  Status teardown = op.Teardown();
  if (out.status.ok()) out.status = teardown;
  return out;
}

void Merge(LoopOutcome& into, const LoopOutcome& more) {
  into.total.Merge(more.total);
  into.sync.Merge(more.sync);
  into.series.insert(into.series.end(), more.series.begin(), more.series.end());
  into.ops += more.ops;
  into.warmup_ops += more.warmup_ops;
  into.elapsed_ns += more.elapsed_ns;
  into.wall_ns += more.wall_ns;
  into.has_sync_part = into.has_sync_part || more.has_sync_part;
  into.sync_sample_every = std::max(into.sync_sample_every, more.sync_sample_every);
  if (into.status.ok()) into.status = more.status;
  into.cpu.quota_cpus = std::max(into.cpu.quota_cpus, more.cpu.quota_cpus);
  into.cpu.spun_ns += more.cpu.spun_ns;
  into.cpu.slept_ns += more.cpu.slept_ns;
  into.cpu.counted = into.cpu.counted || more.cpu.counted;
  into.cpu.throttling.periods += more.cpu.throttling.periods;
  into.cpu.throttling.throttled += more.cpu.throttling.throttled;
  into.cpu.throttling.throttled_ns += more.cpu.throttling.throttled_ns;
  Merge(into.flushes, more.flushes);
}

}  // namespace durprobe::probes
