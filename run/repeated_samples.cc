#include "run/repeated_samples.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "probes/runner.h"
#include "probes/statistics.h"

namespace durprobe::run {

void RepeatedSamples::Add(int repeat, const probes::LoopOutcome& slice) {
  if (repeat != last_repeat_) {
    per_repeat_.emplace_back();
    last_repeat_ = repeat;
  }
  probes::Merge(per_repeat_.back(), slice);
  const auto index = static_cast<std::uint32_t>(per_repeat_.size() - 1);
  for (probes::SeriesPoint& s : per_repeat_.back().series) s.repeat = index;
}

bool RepeatedSamples::Usable() const {
  for (const probes::LoopOutcome& r : per_repeat_) {
    if (!r.status.ok()) return false;
  }
  return true;
}

probes::LoopOutcome RepeatedSamples::Merged() const {
  probes::LoopOutcome all;
  for (const probes::LoopOutcome& r : per_repeat_) probes::Merge(all, r);
  return all;
}

probes::ProbeResult RepeatedSamples::Result(const probes::ProbeSpec& spec, double target_ci,
                                            int planned, std::size_t index,
                                            std::optional<model::ProbeRepeats>& spreads) const {
  probes::ProbeResult row = probes::ToResult(spec, Merged(), target_ci);
  spreads.reset();
  if (planned < 2 || row.outcome == probes::Outcome::kUnsupported) return row;
  std::vector<probes::ProbeResult> each;
  for (const probes::LoopOutcome& r : per_repeat_) {
    each.push_back(probes::ToResult(spec, r, target_ci));
  }
  spreads = model::ProbeRepeatsOf(index, each);
  model::UseMedians(row, *spreads);
  return row;
}

void RepeatedCommits::EndRepeat(sqlite_bench::CommitRun& run) {
  const std::uint32_t done = run.repetitions_done();
  if (done == (ends_.empty() ? 0 : ends_.back())) return;
  ends_.push_back(done);
  latency_.push_back(run.TakeRepeatLatency());
}

std::optional<model::SqliteRepeats> RepeatedCommits::Apply(sqlite_bench::CommitResult& row,
                                                           int planned) const {
  if (planned < 2 || ends_.empty()) return std::nullopt;
  const std::vector<double>& rates = row.repetition_commits_per_sec;
  std::vector<double> per_repeat;
  std::size_t from = 0;
  for (std::uint32_t end : ends_) {
    const std::size_t to = std::min<std::size_t>(end, rates.size());
    per_repeat.push_back(
        probes::Median(std::vector<double>(rates.begin() + static_cast<std::ptrdiff_t>(from),
                                           rates.begin() + static_cast<std::ptrdiff_t>(to))));
    from = to;
  }
  model::SqliteRepeats spreads = model::SqliteRepeatsOf(per_repeat, latency_);
  model::UseMedians(row, spreads);
  return spreads;
}

sqlite_bench::CommitResult CombineRuns(std::vector<sqlite_bench::CommitResult> runs,
                                       std::optional<model::SqliteRepeats>& spreads) {
  spreads.reset();
  if (runs.size() < 2) return runs.empty() ? sqlite_bench::CommitResult{} : std::move(runs[0]);
  std::vector<std::size_t> order(runs.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return runs[a].commits_per_sec < runs[b].commits_per_sec;
  });
  sqlite_bench::CommitResult row = runs[order[(order.size() - 1) / 2]];
  row.repetitions = 0;
  row.warmup_commits = row.commits = row.rows = row.timed_ns = row.verified_rows = 0;
  row.repetition_commits_per_sec.clear();
  row.repetition_windows.clear();
  row.commit_counts = row.setup_counts = row.verify_counts = {};
  row.checkpoints = {};
  row.device_flushes = {};
  probes::LatencySummary& l = row.latency;
  l.count = 0;
  l.min = std::numeric_limits<std::uint64_t>::max();
  l.max = 0;
  double total_ns = 0.0;
  std::vector<double> rates;
  std::vector<probes::LatencySummary> latency;
  for (const sqlite_bench::CommitResult& r : runs) {
    row.repetitions += r.repetitions;
    row.warmup_commits += r.warmup_commits;
    row.commits += r.commits;
    row.rows += r.rows;
    row.timed_ns += r.timed_ns;
    row.verified_rows += r.verified_rows;
    row.repetition_commits_per_sec.insert(row.repetition_commits_per_sec.end(),
                                          r.repetition_commits_per_sec.begin(),
                                          r.repetition_commits_per_sec.end());
    row.repetition_windows.insert(row.repetition_windows.end(), r.repetition_windows.begin(),
                                  r.repetition_windows.end());
    row.commit_counts += r.commit_counts;
    row.setup_counts += r.setup_counts;
    row.verify_counts += r.verify_counts;
    row.checkpoints.count += r.checkpoints.count;
    row.checkpoints.ns += r.checkpoints.ns;
    row.checkpoints.counts += r.checkpoints.counts;
    probes::Merge(row.device_flushes, r.device_flushes);
    if (r.latency.count > 0) {
      l.min = std::min(l.min, r.latency.min);
      l.max = std::max(l.max, r.latency.max);
      l.count += r.latency.count;
      total_ns += r.latency.mean * static_cast<double>(r.latency.count);
    }
    if (r.outcome != probes::Outcome::kOk) {
      row.outcome = r.outcome;
      row.reason = r.reason;
    }
    rates.push_back(r.commits_per_sec);
    latency.push_back(r.latency);
  }
  if (l.count == 0) l.min = 0;
  l.mean = l.count > 0 ? total_ns / static_cast<double>(l.count) : 0.0;
  spreads = model::SqliteRepeatsOf(rates, latency);
  model::UseMedians(row, *spreads);
  return row;
}

}  // namespace durprobe::run
