#include "sqlite_bench/crashsim.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <atomic>
#include <map>

#include "platform/interrupt.h"
#include "sqlite_bench/crashsim_recovery.h"

namespace durprobe::sqlite_bench {

SqlitePrng::~SqlitePrng() { sqlite3_test_control(SQLITE_TESTCTRL_PRNG_SEED, 0, nullptr); }

void SqlitePrng::Seed(std::uint64_t seed) {
  int x = static_cast<int>(seed & 0x3fffffff) | 1;  // 0 would mean "use the OS"
  sqlite3_test_control(SQLITE_TESTCTRL_PRNG_SEED, x, nullptr);
}

std::uint64_t ConfigSeed(std::uint64_t seed, const CrashsimConfig& c) {
  SplitMix64 g(seed ^ (std::uint64_t{c.rows_per_commit} << 32) ^
               (static_cast<std::uint64_t>(c.journal) << 8) ^ static_cast<std::uint64_t>(c.sync));
  return g.Next();
}

namespace {

Result<std::unique_ptr<CrashVfs>> RegisterVfs(platform::Platform& platform, DeviceModel device) {
  static std::atomic<int> serial{0};
  return CrashVfs::Register(fmt::format("durprobe-crash-{}-{}", platform.ProcessId(), serial++),
                            device);
}

// Equal images recover alike: each distinct image is recovered once.
class ImageChecks {
 public:
  ImageChecks(platform::Platform& platform, std::string scratch_dir, std::uint32_t rows,
              std::uint32_t payload)
      : platform_(platform), dir_(std::move(scratch_dir)), rows_(rows), payload_(payload) {}

  Result<RecoveryCheck> Check(const DiskImage& image) {
    std::uint64_t h = HashImage(image);
    auto it = seen_.find(h);
    if (it != seen_.end()) return it->second;
    Result<RecoveryCheck> c = RecoverImage(
        platform_, fmt::format("{}/crash-{}", dir_, seen_.size()), image, rows_, payload_);
    if (c.ok()) seen_.emplace(h, *c);
    return c;
  }
  std::uint64_t distinct() const { return seen_.size(); }

 private:
  platform::Platform& platform_;
  std::string dir_;
  std::uint32_t rows_, payload_;
  std::map<std::uint64_t, RecoveryCheck> seen_;
};

CrashsimResult RunConfig(platform::Platform& platform, CrashVfs& vfs, SqlitePrng& prng,
                         const std::string& scratch_dir, const CrashsimConfig& config,
                         const CrashsimOptions& o) {
  CrashsimResult r;
  r.config = config;
  r.commits = o.workload.commits;
  r.seed = o.seed;
  r.device = DeviceLabel(o.device) + (o.powersafe_overwrite ? "" : "; SQLite told psow=0");
  std::uint64_t config_seed = ConfigSeed(o.seed, config);
  prng.Seed(config_seed);
  CrashRun dry = RunCrashWorkload(vfs, config, o.workload, CrashVfs::kNever);
  if (!dry.status.ok()) {
    r.outcome = probes::OutcomeOf(dry.status);
    r.reason = dry.status.message();
    return r;
  }
  r.crash_points = dry.calls + 1;
  SplitMix64 rng(config_seed);
  ImageChecks checks(platform, scratch_dir, std::max<std::uint32_t>(config.rows_per_commit, 1),
                     o.workload.payload_bytes);
  std::uint64_t lost_sum = 0, readable = 0;
  for (std::uint32_t t = 0; t < o.trials; ++t) {
    if (int sig = platform::InterruptSignal(); sig != 0) {
      r.outcome = probes::Outcome::kInterrupted;
      r.reason = Status::Interrupted(sig).message();
      break;
    }
    std::uint64_t at_call = 1 + rng.Below(r.crash_points);
    std::uint64_t trial_seed = rng.Next();
    prng.Seed(trial_seed);
    CrashRun run = RunCrashWorkload(vfs, config, o.workload, at_call);
    SplitMix64 fate(trial_seed);
    DiskImage image = vfs.disk().ImageFor(vfs.disk().RandomChoices(fate), trial_seed);
    Result<RecoveryCheck> check = run.status.ok() ? checks.Check(image) : run.status;
    if (!check.ok()) {
      r.outcome = probes::OutcomeOf(check.status());
      r.reason = check.status().message();
      break;
    }
    ++r.trials;
    if (check->corrupt) {
      ++r.corrupt;
      if (r.corrupt_example.empty()) r.corrupt_example = check->problem;
      continue;
    }
    std::uint64_t lost =
        run.acked > check->commits_present ? run.acked - check->commits_present : 0;
    ++readable;
    lost_sum += lost;
    r.trials_with_loss += lost > 0;
    r.lost_commits_max = std::max(r.lost_commits_max, lost);
  }
  r.crash_states = checks.distinct();
  r.lost_commits_mean = readable ? double(lost_sum) / double(readable) : 0.0;
  return r;
}

}  // namespace

std::string DeviceLabel(const DeviceModel& d) {
  std::string label;
  auto add = [&label](bool on, const char* name) {
    if (!on) return;
    if (!label.empty()) label += ',';
    label += name;
  };
  add(d.atomic_sectors, "atomic_sectors");
  add(d.ordered_metadata, "ordered_metadata");
  add(d.safe_append, "safe_append");
  add(d.sequential, "sequential");
  return label.empty() ? "none" : label;
}

std::vector<CrashsimConfig> CrashsimConfigs(const std::vector<JournalMode>& journals,
                                            const std::vector<Synchronous>& syncs,
                                            const std::vector<std::uint32_t>& batches) {
  std::vector<JournalMode> js = journals;
  if (js.empty()) {
    js = {JournalMode::kDelete, JournalMode::kTruncate, JournalMode::kPersist, JournalMode::kWal};
  }
  std::vector<Synchronous> ss = syncs;
  if (ss.empty()) {
    ss = {Synchronous::kOff, Synchronous::kNormal, Synchronous::kFull, Synchronous::kExtra};
  }
  std::vector<CrashsimConfig> configs;
  for (JournalMode j : js) {
    for (Synchronous s : ss) {
      for (std::uint32_t b : batches) configs.push_back({j, s, b});
    }
  }
  return configs;
}

std::vector<CrashsimConfig> DefaultCrashsimConfigs(const std::vector<std::uint32_t>& batches) {
  return CrashsimConfigs({}, {}, batches);
}

std::vector<CrashsimResult> RunCrashsim(platform::Platform& platform,
                                        const std::string& scratch_dir, const CrashsimPlan& plan) {
  std::vector<CrashsimResult> results;
  // The device keeps powersafe overwrite exactly when SQLite is told it does (psow=0 otherwise).
  DeviceModel device = plan.options.device;
  device.powersafe_overwrite = plan.options.powersafe_overwrite;
  Result<std::unique_ptr<CrashVfs>> vfs = RegisterVfs(platform, device);
  if (vfs.ok()) (*vfs)->set_powersafe_overwrite(plan.options.powersafe_overwrite);
  SqlitePrng prng;
  for (const CrashsimConfig& c : plan.configs) {
    if (!vfs.ok()) {
      CrashsimResult failed;
      failed.config = c;
      failed.outcome = probes::Outcome::kError;
      failed.reason = vfs.status().message();
      results.push_back(std::move(failed));
      continue;
    }
    results.push_back(RunConfig(platform, **vfs, prng, scratch_dir, c, plan.options));
    if (results.back().outcome == probes::Outcome::kInterrupted) break;
  }
  return results;
}

ModelCheckResult ModelCheck(platform::Platform& platform, const std::string& scratch_dir,
                            const CrashsimConfig& config, const CrashWorkloadOptions& workload,
                            std::size_t max_pending) {
  ModelCheckResult m;
  Result<std::unique_ptr<CrashVfs>> vfs = RegisterVfs(platform, DeviceModel{});
  if (!vfs.ok()) {
    m.status = vfs.status();
    return m;
  }
  SqlitePrng prng;
  prng.Seed(1);
  CrashRun dry = RunCrashWorkload(**vfs, config, workload, CrashVfs::kNever);
  if (!dry.status.ok()) {
    m.status = dry.status;
    return m;
  }
  std::uint32_t rows = std::max<std::uint32_t>(config.rows_per_commit, 1);
  ImageChecks checks(platform, scratch_dir, rows, workload.payload_bytes);
  for (std::uint64_t at = 1; at <= dry.calls + 1; ++at) {
    prng.Seed(1);
    CrashRun run = RunCrashWorkload(**vfs, config, workload, at);
    const CrashDisk& disk = (*vfs)->disk();
    ++m.crash_points;
    if (disk.pending() > max_pending) {
      ++m.skipped_points;
      continue;
    }
    for (std::uint64_t mask = 0; mask < (std::uint64_t{1} << disk.pending()); ++mask) {
      Result<RecoveryCheck> check = checks.Check(disk.ImageFor(disk.SubsetChoices(mask), 0));
      if (!check.ok()) {
        m.status = check.status();
        return m;
      }
      ++m.images;
      if (check->corrupt) {
        ++m.corrupt;
        if (m.corrupt_example.empty()) m.corrupt_example = check->problem;
        continue;
      }
      std::uint64_t lost =
          run.acked > check->commits_present ? run.acked - check->commits_present : 0;
      m.images_with_loss += lost > 0;
      m.lost_commits_max = std::max(m.lost_commits_max, lost);
    }
  }
  m.distinct_images = checks.distinct();
  return m;
}

}  // namespace durprobe::sqlite_bench
