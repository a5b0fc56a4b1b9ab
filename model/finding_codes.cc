#include "model/finding_codes.h"

#include <algorithm>

namespace durprobe::report {

const std::vector<std::string_view>& FindingCodes() {
  static const std::vector<std::string_view> codes = {
      // Mount, filesystem and device (analysis/mount_findings.cc, run/executor.cc)
      "sync_noop_memory_fs",
      "overlay_volatile",
      "barrier_disabled",
      "fuse_overlayfs_fsync_disabled",
      "fuse_overlayfs_fsync_unknown",
      "zfs_sync_disabled",
      "zfs_sync_not_visible",
      "nfs_server_async_unknown",
      "network_fs_sqlite_locking",
      "per_operation_penalty",
      "ext4_data_journal",
      "ext4_data_writeback",
      "journal_commit_interval",
      "sync_mount",
      "dirsync_mount",
      "read_only_mount",
      "volatile_write_cache_no_fua",
      "loop_device",
      "loop_backing_not_durable",
      "statfs_mismatch",
      "inspect_failed",
      // Environment
      "ld_preload_eatmydata",
      "ld_preload_set",
      // Plausibility (analysis/plausibility.cc, probe_findings.cc)
      "sync_noop_suspected",
      "sync_faster_than_device",
      "sync_tail_heavy",
      "sync_max_outlier",
      "sync_bimodal",
      "probe_error",
      "cpu_throttled",  // probe_findings.cc: the CPU quota held a probe off the CPU
      "budget_spent",   // analysis/budget_findings.cc
      // Concurrency (analysis/concurrency_findings.cc)
      "concurrent_syncs_serialise",
      "concurrent_syncs_merge",
      "spec_sheet_iops_ratio",
      // SQLite (analysis/sqlite_correlation.cc, drift.cc)
      "sqlite_commit_error",
      "sqlite_prediction_residual",
      "latency_drift",
      // EBS volume statistics (analysis/ebs_findings.cc)
      "ebs_volume_limit_exceeded",
      "ebs_instance_limit_exceeded",
      // WAL's shared-memory pre-flight (run/wal_preflight.cc)
      "sqlite_wal_shm_unusable",
      // check --background-load (cli/cmd_check.cc)
      "background_load",
      "background_load_short",
  };
  return codes;
}

bool IsFindingCode(std::string_view code) {
  const std::vector<std::string_view>& codes = FindingCodes();
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

}  // namespace durprobe::report
