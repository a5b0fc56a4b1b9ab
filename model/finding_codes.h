// Every finding code durprobe can raise, in one list: `check --fail-on` and a policy's `fail_on`
// accept only these (a typo would otherwise never match and pass for ever). docs/findings.md
// documents each; tests/model/finding_codes_test.cc holds the list, the page and the
// code that raises findings to each other.
#pragma once

#include <string_view>
#include <vector>

namespace durprobe::model {

// Each code as a named constant: the rules raise findings with these, and the code that reads a
// finding compares with them, so a code is spelt once (tests/model/finding_codes_test.cc holds
// the sources to it).
namespace codes {
// Mount, filesystem and device (analysis/mount_findings.cc, run/executor.cc)
inline constexpr char kSyncNoopMemoryFs[] = "sync_noop_memory_fs";
inline constexpr char kOverlayVolatile[] = "overlay_volatile";
inline constexpr char kBarrierDisabled[] = "barrier_disabled";
inline constexpr char kFuseOverlayfsFsyncDisabled[] = "fuse_overlayfs_fsync_disabled";
inline constexpr char kFuseOverlayfsFsyncUnknown[] = "fuse_overlayfs_fsync_unknown";
inline constexpr char kZfsSyncDisabled[] = "zfs_sync_disabled";
inline constexpr char kZfsSyncNotVisible[] = "zfs_sync_not_visible";
inline constexpr char kNfsServerAsyncUnknown[] = "nfs_server_async_unknown";
inline constexpr char kNetworkFsSqliteLocking[] = "network_fs_sqlite_locking";
inline constexpr char kPerOperationPenalty[] = "per_operation_penalty";
inline constexpr char kExt4DataJournal[] = "ext4_data_journal";
inline constexpr char kExt4DataWriteback[] = "ext4_data_writeback";
inline constexpr char kJournalCommitInterval[] = "journal_commit_interval";
inline constexpr char kSyncMount[] = "sync_mount";
inline constexpr char kDirsyncMount[] = "dirsync_mount";
inline constexpr char kReadOnlyMount[] = "read_only_mount";
inline constexpr char kVolatileWriteCacheNoFua[] = "volatile_write_cache_no_fua";
inline constexpr char kLoopDevice[] = "loop_device";
inline constexpr char kLoopBackingNotDurable[] = "loop_backing_not_durable";
inline constexpr char kStatfsMismatch[] = "statfs_mismatch";
inline constexpr char kInspectFailed[] = "inspect_failed";
// Environment
inline constexpr char kLdPreloadEatmydata[] = "ld_preload_eatmydata";
inline constexpr char kLdPreloadSet[] = "ld_preload_set";
// Plausibility (analysis/plausibility.cc, probe_findings.cc)
inline constexpr char kSyncNoopSuspected[] = "sync_noop_suspected";
inline constexpr char kSyncFasterThanDevice[] = "sync_faster_than_device";
inline constexpr char kSyncReachesNoDevice[] = "sync_reaches_no_device";
// compare (explain/compare_analysis.cc): a layer's sync faster than a compared disk's
inline constexpr char kLayerSyncFasterThanDisk[] = "layer_sync_faster_than_disk";
inline constexpr char kSyncTailHeavy[] = "sync_tail_heavy";
inline constexpr char kSyncMaxOutlier[] = "sync_max_outlier";
inline constexpr char kSyncBimodal[] = "sync_bimodal";
inline constexpr char kProbeError[] = "probe_error";
// probe_findings.cc: the CPU quota held a probe off the CPU
inline constexpr char kCpuThrottled[] = "cpu_throttled";
inline constexpr char kBudgetSpent[] = "budget_spent";             // analysis/budget_findings.cc
inline constexpr char kTooFewOperations[] = "too_few_operations";  // analysis/budget_findings.cc
// Concurrency (analysis/concurrency_findings.cc)
inline constexpr char kConcurrentSyncsSerialise[] = "concurrent_syncs_serialise";
inline constexpr char kConcurrentSyncsMerge[] = "concurrent_syncs_merge";
inline constexpr char kSpecSheetIopsRatio[] = "spec_sheet_iops_ratio";
// SQLite (analysis/sqlite_correlation.cc, drift.cc)
inline constexpr char kSqliteCommitError[] = "sqlite_commit_error";
inline constexpr char kSqlitePredictionResidual[] = "sqlite_prediction_residual";
inline constexpr char kLatencyDrift[] = "latency_drift";
inline constexpr char kDeviceStates[] = "device_states";  // analysis/device_states.cc
// EBS volume statistics (analysis/ebs_findings.cc)
inline constexpr char kEbsVolumeLimitExceeded[] = "ebs_volume_limit_exceeded";
inline constexpr char kEbsInstanceLimitExceeded[] = "ebs_instance_limit_exceeded";
// WAL's shared-memory pre-flight (run/wal_preflight.cc)
inline constexpr char kSqliteWalShmUnusable[] = "sqlite_wal_shm_unusable";
// check --background-load (cli/cmd_check.cc)
inline constexpr char kBackgroundLoad[] = "background_load";
inline constexpr char kBackgroundLoadShort[] = "background_load_short";
// durprobe faults (analysis/fsync_error_meaning.cc)
inline constexpr char kFsyncErrorNotReported[] = "fsync_error_not_reported";
inline constexpr char kFsyncRetryUnsafe[] = "fsync_retry_unsafe";
// --evidence (analysis/powercut_verdict.cc)
inline constexpr char kPowercutEvidenceIgnored[] = "powercut_evidence_ignored";
}  // namespace codes

// In the order of docs/findings.md.
const std::vector<std::string_view>& FindingCodes();
bool IsFindingCode(std::string_view code);

}  // namespace durprobe::model
