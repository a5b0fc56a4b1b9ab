#include "sqlite_bench/crashtest.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <memory>
#include <set>

#include "platform/interrupt.h"
#include "probes/powercut_record.h"
#include "sqlite_bench/crashsim.h"
#include "sqlite_bench/crashsim_recovery.h"
#include "sqlite_bench/sqlite_db.h"

namespace durprobe::sqlite_bench {
namespace {

using platform::CrashDevice;
using platform::CrashLog;
using platform::CrashState;
using platform::CrashStateSpec;

// Each configuration's database has a directory of its own on the device: "wal-full-1".
std::string DirOf(const CrashsimConfig& c) {
  std::string dir = fmt::format("{}-{}-{}", NameOf(c.journal), NameOf(c.sync), c.rows_per_commit);
  std::transform(dir.begin(), dir.end(), dir.begin(), ::tolower);
  return dir;
}

// The workload as an application runs it: the database and its table made and the device
// checkpointed with them (every state starts from there), then the commits on a fresh mount,
// each one's acknowledgement placed in the device's log (CrashDevice::LogBytes).
struct Workload {
  Status status;
  std::vector<std::uint64_t> acks;
};

Status MakeDatabase(platform::Platform& platform, const std::string& db_dir,
                    const CrashsimConfig& config, const CrashtestOptions& o) {
  if (Status s = platform.MakeDirectory(db_dir); !s.ok()) return s;
  Result<std::unique_ptr<Db>> db = Db::Open(db_dir + "/" + kCrashDbName, nullptr);
  if (!db.ok()) return db.status();
  if (Status s = SetupCrashDb(**db, config, o.workload); !s.ok()) return s;
  return (*db)->Close();
}

Workload RunWorkload(platform::Platform& platform, CrashDevice& device,
                     const CrashsimConfig& config, const CrashtestOptions& o) {
  Workload w;
  const std::string dir = DirOf(config);
  Result<std::string> mnt = device.Mount(o.fs);
  if (!mnt.ok()) return {mnt.status(), {}};
  w.status = MakeDatabase(platform, *mnt + "/" + dir, config, o);
  Status unmounted = device.Unmount();
  if (w.status.ok()) w.status = unmounted;
  if (w.status.ok()) w.status = device.Checkpoint();
  if (!w.status.ok()) return w;
  mnt = device.Mount(o.fs);
  if (!mnt.ok()) return {mnt.status(), {}};
  {
    Result<std::unique_ptr<Db>> db = Db::Open(*mnt + "/" + dir + "/" + kCrashDbName, nullptr);
    w.status = db.ok() ? ApplyCrashPragmas(**db, config, o.workload) : db.status();
    if (w.status.ok()) {
      Result<CrashStatements> statements = PrepareCrashStatements(**db);
      w.status = statements.status();
      const std::uint32_t rows = std::max<std::uint32_t>(config.rows_per_commit, 1);
      for (std::uint32_t i = 0; w.status.ok() && i < o.workload.commits; ++i) {
        if (!CommitCrashRows(**db, *statements, std::uint64_t{i} * rows + 1, rows,
                             o.workload.payload_bytes)) {
          w.status = Status::Error(fmt::format("commit {} of the workload failed: {}", i + 1,
                                               sqlite3_errmsg((*db)->get())));
          break;
        }
        Result<std::uint64_t> at = device.LogBytes();
        w.status = at.status();
        if (at.ok()) w.acks.push_back(*at);
      }
    }  // the statements are finalized before the close
    if (db.ok()) {
      Status closed = (*db)->Close();
      if (w.status.ok()) w.status = closed;
    }
  }
  Status unmounted_again = device.Unmount();
  if (w.status.ok()) w.status = unmounted_again;
  return w;
}

// FNV-1a (probes::Fnv1a64) over v's eight bytes, least significant first, continuing from hash.
std::uint64_t Mix(std::uint64_t hash, std::uint64_t v) {
  std::array<std::uint8_t, 8> bytes;
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(v >> (8 * i));
  return probes::Fnv1a64(bytes, hash);
}

// Equal write lists make equal states: their hash counts the distinct ones.
std::uint64_t HashWrites(const std::vector<platform::StateWrite>& writes) {
  std::uint64_t h = probes::kFnvOffset;
  for (const platform::StateWrite& w : writes) {
    h = Mix(Mix(Mix(h, w.offset), w.length), w.data_at);
  }
  return h;
}

void AddExample(CrashtestResult& r, std::size_t& count, const CrashStateSpec& spec,
                std::string outcome) {
  if (count >= kCrashtestExamples) return;
  ++count;
  for (char& c : outcome) c = c == '\n' ? ' ' : c;
  r.examples.push_back({platform::DescribeState(spec), std::move(outcome)});
}

// A crash device with the filesystem made on it, as a run starts.
Result<std::unique_ptr<CrashDevice>> MakeDevice(platform::Platform& platform, int scratch_fd,
                                                const std::string& scratch,
                                                const CrashtestOptions& o) {
  platform::CrashDeviceOptions device_options;
  device_options.image_bytes = o.image_bytes;
  device_options.mode = o.mode;
  Result<std::unique_ptr<CrashDevice>> device =
      CrashDevice::Create(platform, scratch_fd, scratch, device_options);
  if (!device.ok()) return device;
  if (Status s = (*device)->Format(o.fs); !s.ok()) return s;
  return device;
}

// The workload, run once and its log read; with o.log, run on a new device each time until it
// logs that log (at most kLogAttempts runs), else an Error naming the logs it got. r gets the
// digest and the runs it took.
Result<CrashLog> RunLogged(platform::Platform& platform, int scratch_fd, const std::string& scratch,
                           std::unique_ptr<CrashDevice>& device, const CrashsimConfig& config,
                           const CrashtestOptions& o, Workload& w, CrashtestResult& r) {
  std::set<std::string> logged;  // each run's digest, while rebuilding on a named log
  const int attempts = o.log.empty() ? 1 : kLogAttempts;
  for (int attempt = 0; attempt < attempts; ++attempt) {
    if (attempt > 0) {  // a new device and filesystem, as the reported run started with
      device.reset();   // its files go first: the new one takes the same names
      Result<std::unique_ptr<CrashDevice>> fresh = MakeDevice(platform, scratch_fd, scratch, o);
      if (!fresh.ok()) return fresh.status();
      device = std::move(*fresh);
    }
    w = RunWorkload(platform, *device, config, o);
    Result<CrashLog> log = w.status.ok() ? device->ReadLog() : Result<CrashLog>(w.status);
    if (!log.ok()) return log;
    ++r.workload_runs;
    r.log = LogDigest(*log, w.acks);
    if (o.log.empty() || r.log == o.log) return log;
    logged.insert(r.log);
  }
  return Status::Error(fmt::format(
      "the workload logged {} in {} runs, never the named log {}: a state is rebuilt on the log "
      "it was reported on (the same kernel and filesystem, and the first configuration of its "
      "run)",
      fmt::join(logged, " or "), attempts, o.log));
}

CrashtestResult RunConfig(platform::Platform& platform, int scratch_fd, const std::string& scratch,
                          std::unique_ptr<CrashDevice>& device, const CrashsimConfig& config,
                          const CrashtestOptions& o) {
  CrashtestResult r;
  r.config = config;
  r.fs = o.fs.type;
  r.fs_options = o.fs.options;
  r.device = platform::CacheModeName(o.mode);
  r.seed = o.seed;
  const std::uint64_t seed = ConfigSeed(o.seed, config);
  SqlitePrng prng;
  prng.Seed(seed);
  Workload w;
  Result<CrashLog> log = RunLogged(platform, scratch_fd, scratch, device, config, o, w, r);
  if (!log.ok()) {
    r.outcome = probes::OutcomeOf(log.status());
    r.reason = log.status().message();
    return r;
  }
  r.commits = w.acks.size();
  r.writes = log->writes.size();
  r.flushes = log->flushes.size();
  std::vector<std::uint64_t> flush_ends;
  for (std::size_t k : log->flushes) flush_ends.push_back(log->events[k].data_at);
  const std::string db = DirOf(config) + "/" + kCrashDbName;
  const std::uint32_t rows = std::max<std::uint32_t>(config.rows_per_commit, 1);
  std::set<std::uint64_t> distinct;
  std::size_t corrupt_examples = 0, lost_examples = 0;
  const std::uint64_t start = platform.NowNanos();
  const std::vector<CrashStateSpec> specs =
      o.only_state ? std::vector<CrashStateSpec>{*o.only_state}
                   : platform::ChooseStates(*log, o.mode, o.states, seed);
  for (const CrashStateSpec& spec : specs) {
    if (int sig = platform::InterruptSignal(); sig != 0) {
      r.outcome = probes::Outcome::kInterrupted;
      r.reason = Status::Interrupted(sig).message();
      break;
    }
    Result<std::vector<platform::StateWrite>> writes = platform::StateWrites(*log, spec);
    Result<std::unique_ptr<CrashState>> state =
        writes.ok() ? CrashState::Build(platform, scratch_fd, scratch, device->base_path(),
                                        device->log_path(), *log, spec, o.fs)
                    : Result<std::unique_ptr<CrashState>>(writes.status());
    if (!state.ok()) {
      r.outcome = probes::OutcomeOf(state.status());
      r.reason = state.status().message();
      break;
    }
    distinct.insert(HashWrites(*writes));
    ++r.states;
    const platform::MountOutcome& mounted = (*state)->outcome();
    const std::uint64_t acked = AckedBefore(w.acks, flush_ends, spec.CutBefore());
    const bool at_flush = spec.kept.empty();
    if (!mounted.mounted) {
      if (at_flush) r.timeline.push_back({spec.after_flush, acked, 0, true});
      ++r.corrupt;
      ++r.mount_failed;
      AddExample(r, corrupt_examples, spec,
                 "mount failed: " + mounted.error +
                     (mounted.kernel.empty() ? "" : " (" + mounted.kernel.back() + ")"));
      continue;
    }
    RecoveryCheck check =
        CheckRecoveredDb((*state)->mount_path() + "/" + db, rows, o.workload.payload_bytes);
    if (Status released = (*state)->Release(); !released.ok()) {
      r.outcome = probes::OutcomeOf(released);
      r.reason = released.message();
      break;
    }
    if (at_flush) {
      r.timeline.push_back(
          {spec.after_flush, acked, check.corrupt ? 0 : check.commits_present, check.corrupt});
    }
    if (check.corrupt) {
      ++r.corrupt;
      AddExample(r, corrupt_examples, spec, check.problem);
      continue;
    }
    if (o.only_state && check.commits_present >= acked) {
      AddExample(
          r, lost_examples, spec,
          fmt::format("kept all {} acknowledged commits ({} found)", acked, check.commits_present));
    }
    if (check.commits_present < acked) {
      std::uint64_t lost = acked - check.commits_present;
      ++r.lost_states;
      r.lost_max = std::max(r.lost_max, lost);
      AddExample(r, lost_examples, spec,
                 fmt::format("lost {} of {} acknowledged commits", lost, acked));
    }
  }
  r.ns = platform.NowNanos() - start;
  r.distinct = distinct.size();
  std::sort(r.timeline.begin(), r.timeline.end(),
            [](const CrashtestMoment& a, const CrashtestMoment& b) { return a.flush < b.flush; });
  return r;
}

}  // namespace

std::string LogDigest(const platform::CrashLog& log, const std::vector<std::uint64_t>& acks) {
  std::uint64_t h = probes::kFnvOffset;
  for (const platform::CrashEvent& e : log.events) h = Mix(Mix(Mix(h, e.kind), e.offset), e.length);
  // Each acknowledgement as the events logged before it: the log's bytes before the workload's
  // checkpoint vary, the order of events and acknowledgements is what the states depend on.
  h = Mix(h, acks.size());
  for (std::uint64_t ack : acks) {
    h = Mix(h, static_cast<std::uint64_t>(std::count_if(
                   log.events.begin(), log.events.end(),
                   [ack](const platform::CrashEvent& e) { return e.data_at <= ack; })));
  }
  return fmt::format("{:016x}", h);
}

bool IsLogDigest(std::string_view text) {
  return text.size() == 16 && std::all_of(text.begin(), text.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

std::uint64_t AckedBefore(const std::vector<std::uint64_t>& commits,
                          const std::vector<std::uint64_t>& flush_ends, std::size_t after_flush) {
  if (after_flush >= flush_ends.size()) return commits.size();
  const std::uint64_t at = flush_ends[after_flush];
  return static_cast<std::uint64_t>(
      std::count_if(commits.begin(), commits.end(), [at](std::uint64_t ack) { return ack < at; }));
}

std::vector<CrashtestResult> RunCrashtest(platform::Platform& platform, int scratch_fd,
                                          const std::string& scratch, const CrashtestPlan& plan) {
  const CrashtestOptions& o = plan.options;
  std::vector<CrashtestResult> results;
  Result<std::unique_ptr<CrashDevice>> made = MakeDevice(platform, scratch_fd, scratch, o);
  const Status ready = made.status();
  std::unique_ptr<CrashDevice> device = made.ok() ? std::move(*made) : nullptr;
  for (const CrashsimConfig& config : plan.configs) {
    if (!ready.ok()) {
      CrashtestResult r;
      r.config = config;
      r.fs = o.fs.type;
      r.fs_options = o.fs.options;
      r.device = platform::CacheModeName(o.mode);
      r.seed = o.seed;
      r.outcome = probes::OutcomeOf(ready);
      r.reason = ready.message();
      results.push_back(r);
      continue;
    }
    results.push_back(RunConfig(platform, scratch_fd, scratch, device, config, o));
    if (results.back().outcome == probes::Outcome::kInterrupted) break;
  }
  return results;
}

}  // namespace durprobe::sqlite_bench
