#include "model/finding_codes.h"

#include <algorithm>

namespace durprobe::model {

const std::vector<std::string_view>& FindingCodes() {
  static const std::vector<std::string_view> list = {
      // Mount, filesystem and device (analysis/mount_findings.cc, run/executor.cc)
      codes::kSyncNoopMemoryFs,
      codes::kOverlayVolatile,
      codes::kBarrierDisabled,
      codes::kFuseOverlayfsFsyncDisabled,
      codes::kFuseOverlayfsFsyncUnknown,
      codes::kZfsSyncDisabled,
      codes::kZfsSyncNotVisible,
      codes::kNfsServerAsyncUnknown,
      codes::kNetworkFsSqliteLocking,
      codes::kPerOperationPenalty,
      codes::kExt4DataJournal,
      codes::kExt4DataWriteback,
      codes::kJournalCommitInterval,
      codes::kSyncMount,
      codes::kDirsyncMount,
      codes::kReadOnlyMount,
      codes::kVolatileWriteCacheNoFua,
      codes::kLoopDevice,
      codes::kLoopBackingNotDurable,
      codes::kStatfsMismatch,
      codes::kInspectFailed,
      // Environment
      codes::kLdPreloadEatmydata,
      codes::kLdPreloadSet,
      // Plausibility (analysis/plausibility.cc, probe_findings.cc)
      codes::kSyncNoopSuspected,
      codes::kSyncFasterThanDevice,
      codes::kSyncReachesNoDevice,
      codes::kLayerSyncFasterThanDisk,  // compare (explain/compare_analysis.cc)
      codes::kSyncTailHeavy,
      codes::kSyncMaxOutlier,
      codes::kSyncBimodal,
      codes::kProbeError,
      codes::kCpuThrottled,
      codes::kBudgetSpent,
      codes::kTooFewOperations,
      // Concurrency (analysis/concurrency_findings.cc)
      codes::kConcurrentSyncsSerialise,
      codes::kConcurrentSyncsMerge,
      codes::kSpecSheetIopsRatio,
      // SQLite (analysis/sqlite_correlation.cc, drift.cc)
      codes::kSqliteCommitError,
      codes::kSqlitePredictionResidual,
      codes::kLatencyDrift,
      codes::kDeviceStates,
      // EBS volume statistics (analysis/ebs_findings.cc)
      codes::kEbsVolumeLimitExceeded,
      codes::kEbsInstanceLimitExceeded,
      // WAL's shared-memory pre-flight (run/wal_preflight.cc)
      codes::kSqliteWalShmUnusable,
      // check --background-load (cli/cmd_check.cc)
      codes::kBackgroundLoad,
      codes::kBackgroundLoadShort,
      // durprobe faults (analysis/fsync_error_meaning.cc)
      codes::kFsyncErrorNotReported,
      codes::kFsyncRetryUnsafe,
      // --evidence (analysis/powercut_verdict.cc)
      codes::kPowercutEvidenceIgnored,
  };
  return list;
}

bool IsFindingCode(std::string_view code) {
  const std::vector<std::string_view>& list = FindingCodes();
  return std::find(list.begin(), list.end(), code) != list.end();
}

}  // namespace durprobe::model
