#include "probes/concurrency.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <latch>
#include <new>
#include <optional>
#include <thread>

#include "platform/enum_table.h"
#include "platform/thread.h"
#include "probes/concurrency_writers.h"
#include "probes/primitive_ops.h"

namespace durprobe::probes {
namespace {

// Threads, each with its own op, released together once all are set up (the latch).
std::vector<LoopOutcome> RunWriterThreads(platform::Platform& platform,
                                          std::vector<std::unique_ptr<ProbeOp>>& ops,
                                          const StopRule& rule, std::uint32_t* started) {
  const std::size_t n = ops.size();
  std::vector<LoopOutcome> outcomes(n);
  std::vector<Status> setups(n);
  std::latch ready(static_cast<std::ptrdiff_t>(n));
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < n; ++i) {
    Result<std::thread> t = platform::StartThread([&, i] {
      bool arrived = false;
      try {
        setups[i] = ops[i]->Setup();
        arrived = true;
        ready.arrive_and_wait();
        if (setups[i].ok()) outcomes[i] = RunTimedLoop(platform, *ops[i], rule);
      } catch (const std::bad_alloc&) {
        // Under `ulimit -v` the writers' stacks may take what the heap needed: this writer's
        // error, never std::terminate for the run.
        if (!arrived) ready.count_down();
        setups[i] = Status::FromErrno(ENOMEM, "a writer could not allocate its histogram");
      }
      Status down = ops[i]->Teardown();
      if (!setups[i].ok()) {
        outcomes[i].status = setups[i];
      } else if (outcomes[i].status.ok()) {
        outcomes[i].status = down;
      }
    });
    if (!t.ok()) {
      outcomes[i].status = t.status();
      ready.count_down();  // the writer that never started must not hold the others back
      continue;
    }
    threads.push_back(std::move(*t));
  }
  for (std::thread& t : threads) t.join();
  *started = static_cast<std::uint32_t>(threads.size());
  return outcomes;
}

ConcurrencyResult Aggregate(const ConcurrencySpec& spec, const std::vector<LoopOutcome>& loops) {
  ConcurrencyResult r;
  r.spec = spec;
  Histogram all;
  Status first;
  for (const LoopOutcome& loop : loops) {
    all.Merge(loop.total);
    r.ops += loop.ops;
    r.warmup_ops += loop.warmup_ops;
    const double s = static_cast<double>(loop.elapsed_ns) / 1e9;
    r.seconds = std::max(r.seconds, s);
    if (s > 0) r.aggregate_ops_per_sec += static_cast<double>(loop.ops) / s;
    // An interruption is said only when no writer failed for a reason of its own.
    if (!loop.status.ok() && (first.ok() || OutcomeOf(first) == Outcome::kInterrupted)) {
      first = loop.status;
    }
  }
  r.latency = Summarize(all);
  if (!first.ok()) {
    r.outcome = OutcomeOf(first);
    r.reason = first.message();
  }
  return r;
}

ConcurrencyResult Failed(const ConcurrencySpec& spec, const Status& s) {
  ConcurrencyResult r;
  r.spec = spec;
  r.outcome = OutcomeOf(s);
  r.reason = s.message();
  return r;
}

}  // namespace

constexpr platform::TextRow<WriterMode> kWriterModeNames[] = {
    {WriterMode::kThreads, "threads"},
    {WriterMode::kProcesses, "processes"},
    {WriterMode::kSharedFile, "shared_file"},
};
static_assert(platform::OneRowPerValue(kWriterModeNames, kLastWriterMode),
              "one name per WriterMode");

std::string_view NameOf(WriterMode m) { return platform::TextIn(kWriterModeNames, m); }

const std::map<std::string, WriterMode>& WriterModeNames() {
  static const std::map<std::string, WriterMode> names = {{"threads", WriterMode::kThreads},
                                                          {"processes", WriterMode::kProcesses},
                                                          {"shared_file", WriterMode::kSharedFile}};
  return names;
}

std::vector<std::uint32_t> DefaultWriterCounts() { return {1, 2, 4, 8, 16}; }

std::vector<WriterMode> AllWriterModes() {
  return {WriterMode::kThreads, WriterMode::kProcesses, WriterMode::kSharedFile};
}

Status Validate(const ConcurrencySpec& spec) {
  const PrimitiveOps& ops = OpsOf(spec.primitive);
  if (spec.primitive == Primitive::kNone || ops.syncs_directory) {
    return Status::InvalidArgument(fmt::format(
        "concurrent writers need a primitive that writes and syncs a file, not {}", ops.name));
  }
  if (spec.writers == 0 || spec.writers > kMaxWriters) {
    return Status::OutOfRange(
        fmt::format("writers {} is outside 1 .. {}", spec.writers, kMaxWriters));
  }
  return Validate(ProbeSpec{spec.primitive, Pattern::kOverwrite, spec.write_size});
}

ConcurrencyResult RunConcurrency(platform::Platform& platform, const std::string& scratch_dir,
                                 const ConcurrencySpec& spec, const StopRule& rule,
                                 std::uint64_t file_size) {
  if (Status valid = Validate(spec); !valid.ok()) return Failed(spec, valid);
  std::vector<LoopOutcome> loops;
  std::uint32_t seen = 0;
  StopRule writer_rule = rule;
  writer_rule.flush_counting = {};
  std::optional<FlushCounter> flushes;
  std::uint64_t began = 0;
  auto start_counting = [&] {
    flushes.emplace(platform, rule.flush_counting);
    began = platform.NowNanos();
  };
  if (spec.mode == WriterMode::kProcesses) {
    start_counting();
    loops = RunWriterProcesses(platform, scratch_dir, spec, writer_rule, file_size, &seen);
  } else {
    std::unique_ptr<SharedFile> shared;
    if (spec.mode == WriterMode::kSharedFile) {
      Result<std::unique_ptr<SharedFile>> made =
          SharedFile::Create(platform, scratch_dir, spec.primitive, file_size * spec.writers);
      if (!made.ok()) return Failed(spec, made.status());
      shared = std::move(*made);
    }
    std::vector<std::unique_ptr<ProbeOp>> ops;
    for (std::uint32_t i = 0; i < spec.writers; ++i) {
      Result<std::unique_ptr<ProbeOp>> op =
          MakeWriterOp(platform, scratch_dir, spec, i, file_size, shared.get());
      if (!op.ok()) {
        RemoveWriterDirs(platform, scratch_dir, i);
        return Failed(spec, op.status());
      }
      ops.push_back(std::move(*op));
    }
    start_counting();
    loops = RunWriterThreads(platform, ops, writer_rule, &seen);
    ops.clear();
    if (spec.mode == WriterMode::kThreads) RemoveWriterDirs(platform, scratch_dir, spec.writers);
  }
  ConcurrencyResult r = Aggregate(spec, loops);
  r.writers_seen = seen;
  const std::uint64_t ran_ns = platform.NowNanos() - began;
  flushes->EndTimed(r.ops + r.warmup_ops, ran_ns);
  flushes->Idle(ran_ns / kControlShare);
  r.device_flushes = flushes->tally();
  return r;
}

void SetScaling(std::vector<ConcurrencyResult>& results) {
  for (ConcurrencyResult& r : results) {
    r.scaling = 0.0;
    for (const ConcurrencyResult& one : results) {
      if (one.spec.writers == 1 && one.spec.mode == r.spec.mode &&
          one.spec.primitive == r.spec.primitive && one.spec.write_size == r.spec.write_size &&
          one.outcome == Outcome::kOk && one.aggregate_ops_per_sec > 0 &&
          r.outcome == Outcome::kOk) {
        r.scaling = r.aggregate_ops_per_sec / one.aggregate_ops_per_sec;
      }
    }
  }
}

}  // namespace durprobe::probes
