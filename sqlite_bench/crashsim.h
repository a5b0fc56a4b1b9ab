// `durprobe crashsim`: for each journal_mode x synchronous x batch, run the commit workload on the
// crash VFS (crash_vfs.h), cut the power at seeded random calls, recover each crash image with
// plain SQLite in a scratch subdirectory and count corrupt databases and lost acknowledged
// commits. Deterministic for a seed. Never prints.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "sqlite_bench/crash_disk.h"
#include "sqlite_bench/crashsim_result.h"
#include "sqlite_bench/crashsim_workload.h"

namespace durprobe::sqlite_bench {

struct CrashsimOptions {
  std::uint32_t trials = 100;  // crash images per configuration
  std::uint64_t seed = 1;
  CrashWorkloadOptions workload;
  DeviceModel device;
  // What the VFS tells SQLite: true as the unix VFS does by default; false as with psow=0.
  bool powersafe_overwrite = true;
};

struct CrashsimPlan {
  std::vector<CrashsimConfig> configs;
  CrashsimOptions options;
};

// SQLite draws journal nonces and WAL salts from its own PRNG, seeded from the OS: seeding it
// per trial makes a trial repeat byte for byte. The OS seed is back when this goes away.
class SqlitePrng {
 public:
  SqlitePrng() = default;
  SqlitePrng(const SqlitePrng&) = delete;
  SqlitePrng& operator=(const SqlitePrng&) = delete;
  ~SqlitePrng();
  void Seed(std::uint64_t seed);
};

// The seed of configuration c's trials (or states) under seed: each configuration's draws
// derive from the seed and the configuration alone, so a subset gives the same rows.
std::uint64_t ConfigSeed(std::uint64_t seed, const CrashsimConfig& config);

// "none", or the device guarantees that are on, comma-separated (the CLI's --device names).
std::string DeviceLabel(const DeviceModel& device);

// Every journal mode x synchronous level x batch size, journal mode outermost. Empty journals:
// DELETE, TRUNCATE, PERSIST, WAL; empty levels: OFF, NORMAL, FULL, EXTRA.
std::vector<CrashsimConfig> CrashsimConfigs(const std::vector<JournalMode>& journals,
                                            const std::vector<Synchronous>& syncs,
                                            const std::vector<std::uint32_t>& batches);
// The default matrix: CrashsimConfigs({}, {}, batches).
std::vector<CrashsimConfig> DefaultCrashsimConfigs(const std::vector<std::uint32_t>& batches = {1});

// Runs every configuration; images are recovered in subdirectories of scratch_dir. Stops after
// the current trial on SIGINT (that result says interrupted). Each configuration's trials derive
// from the seed and the configuration alone, so a subset of configurations gives the same rows.
std::vector<CrashsimResult> RunCrashsim(platform::Platform& platform,
                                        const std::string& scratch_dir, const CrashsimPlan& plan);

// The exhaustive check for tiny workloads: a crash before every disk-changing call (and after the
// last), and at each, every subset of the unsynced entries applied whole (atomic sectors, any
// order). Points with more than max_pending unsynced entries are skipped and counted.
struct ModelCheckResult {
  std::uint64_t crash_points = 0;
  std::uint64_t skipped_points = 0;
  std::uint64_t images = 0;  // subsets tried
  std::uint64_t distinct_images = 0;
  std::uint64_t corrupt = 0;
  std::uint64_t images_with_loss = 0;
  std::uint64_t lost_commits_max = 0;
  std::string corrupt_example;
  Status status;
};
ModelCheckResult ModelCheck(platform::Platform& platform, const std::string& scratch_dir,
                            const CrashsimConfig& config, const CrashWorkloadOptions& workload,
                            std::size_t max_pending);

}  // namespace durprobe::sqlite_bench
