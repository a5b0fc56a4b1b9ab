// WAL's shared-memory index on a path. SQLite maps a WAL database's -shm file with
// mmap(MAP_SHARED); on a filesystem that cannot back such a mapping, touching it raises SIGBUS and
// kills the process (durprobe with it, its scratch left behind and no report written). So before
// anything opens a WAL database on a path, a forked child maps a file there the way SQLite does
// (platform::Platform::CheckSharedMapping). When that fails, the first WAL configuration is
// reported failed with the reason, the other WAL configurations and the SQLite workloads (each
// opens a WAL database) are skipped, and sqlite_wal_shm_unusable says so (docs/sqlite.md).
#pragma once

#include <string>
#include <vector>

#include "model/report.h"
#include "platform/platform.h"
#include "run/plan.h"
#include "sqlite_bench/commit_bench.h"

namespace durprobe::run {

bool UsesWal(const sqlite_bench::CommitConfig& config);
// Whether the plan opens a WAL database on each path: a WAL configuration or any workload.
bool NeedsWal(const Plan& plan);

class WalGate {
 public:
  // Runs the pre-flight in dir when needed (a WAL configuration or a workload is planned).
  WalGate(platform::Platform& platform, const std::string& dir, bool needed);

  // Whether WAL databases may be opened on this path.
  bool usable() const { return usable_; }
  // The result standing in for config, a WAL configuration, when !usable(): the first one failed
  // with the reason, the later ones skipped.
  sqlite_bench::CommitResult Refuse(const sqlite_bench::CommitConfig& config);
  // Records that a workload was skipped because !usable().
  void SkipWorkload(const std::string& name) { skipped_.push_back(name + " workload"); }
  // Appends sqlite_wal_shm_unusable to target when anything was refused.
  void AddFinding(model::Target& target) const;

 private:
  Status why_;
  bool usable_ = true;
  std::string failed_;  // the configuration reported failed
  std::vector<std::string> skipped_;
};

}  // namespace durprobe::run
