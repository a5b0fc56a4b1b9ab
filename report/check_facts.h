// The rules about what a path is rather than how fast it syncs: required storage facts, findings
// that fail the check, and postgres-wal's choice of wal_sync_method. Used by check_rules.cc.
#pragma once

#include <vector>

#include "report/check_rules.h"

namespace durprobe::report {

// One result for a required fact; an error when the mount or device could not be identified.
CheckResult EvaluateFact(Fact fact, const Target& target);

// One result for fail_on_codes ("fail_on_findings": fails when the target has any of them) and
// one for fail_on_severity ("findings_warn": fails when any finding is at or above it).
std::vector<CheckResult> EvaluateFindings(const Policy& policy, const Target& target);

// pg_test_fsync's one-8-KiB-write comparison: open_datasync (odsync), fdatasync, fsync and
// open_sync (osync), overwriting a preallocated file, as PostgreSQL writes its WAL.
std::vector<probes::ProbeSpec> WalSyncMethodSpecs();
// The method with the most synced writes per second, its margin over the runner-up in the
// message; an error when fewer than two methods could be measured.
CheckResult RecommendWalSyncMethod(const Target& target);

}  // namespace durprobe::report
