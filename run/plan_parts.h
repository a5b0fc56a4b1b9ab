// The parts of a plan several commands share, each from its request (run/requests.h): the
// probes, the concurrency phase beside them, the SQLite matrix, its correlation probes, the
// workloads and crashsim. Each command's whole plan is run/command_plans.h's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "platform/status.h"
#include "probes/runner.h"
#include "run/plan.h"
#include "run/requests.h"
#include "sqlite_bench/commit_bench.h"
#include "sqlite_bench/crashsim.h"
#include "sqlite_bench/workloads.h"

namespace durprobe::run {

// The default probe file: overwrites cycle through it, appends restart at it.
inline constexpr std::uint64_t kDefaultProbeFileSize = 16u << 20;
// A row's payload: 1 byte to kMaxPayload.
inline constexpr std::uint64_t kMaxPayload = 1u << 20;

// The probe part of a plan from the request, with budget_ns shared over the probes.
// InvalidArgument when --writers asks for another pattern than overwrite, or --file-size is
// smaller than a write.
Result<probes::ProbePlan> MakeProbePlan(platform::Platform& platform, const ProbeRequest& request,
                                        std::uint64_t budget_ns);
// With --writers, the concurrency phase (plan.concurrency, run_concurrency set) takes its share
// of probe_ns, each cell as much as each of plan.probes' probes (run/budget.h ConcurrencyShare),
// and plan.probes.rule is re-cut for what is left. Nothing without --writers.
Status AddConcurrency(const ProbeRequest& request, std::uint64_t probe_ns, Plan& plan);

// The matrix part of a plan, with budget_ns shared over its configurations.
Result<sqlite_bench::MatrixPlan> MakeSqlitePlan(platform::Platform& platform,
                                                const SqliteMatrixRequest& request,
                                                std::uint64_t budget_ns);
// The probes the correlation needs: SQLite's sync primitive at 4 KiB overwrite and append, and
// dir_fsync after create.
probes::ProbePlan CorrelationProbePlan(platform::Platform& platform, std::uint64_t budget_ns);

// Whether the commit matrix runs: no --workloads at all, or "commits" among them.
bool RunsCommitMatrix(const SqliteWorkloadRequest& request);
// The workloads selected (in run order) with their options; an empty plan when none is.
Result<sqlite_bench::WorkloadPlan> MakeWorkloadPlan(const SqliteWorkloadRequest& request,
                                                    std::uint64_t budget_ns);
// "1/3", "0.25", "25%": a share in [0, 1].
Result<double> ParseShare(const std::string& text);

// The crashsim rows for a commit matrix: its journal x synchronous x batch, each once.
std::vector<sqlite_bench::CrashsimConfig> CrashsimConfigsFor(
    const std::vector<sqlite_bench::CommitConfig>& matrix);
// The crashsim plan for configs, with the request's trials, seed, workload and device.
sqlite_bench::CrashsimPlan MakeCrashsimPlan(const CrashsimRequest& request,
                                            std::vector<sqlite_bench::CrashsimConfig> configs);

}  // namespace durprobe::run
