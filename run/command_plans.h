// Each measuring command's whole plan from its request (run/requests.h): the budget (the
// command's default, its --quick one, or --budget), its split over the paths and phases
// (run/budget.h), and the parts (run/plan_parts.h). cli/ resolves the paths and parses the
// options; what a request turns into is decided here, and unit-tested in tests/run/.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "platform/status.h"
#include "run/plan.h"
#include "run/requests.h"

namespace durprobe::run {

// A command's budget when --budget is not given: default_ns, or quick_ns with --quick.
struct CommandBudget {
  std::uint64_t default_ns = 0;
  std::uint64_t quick_ns = 0;
};
inline constexpr CommandBudget kRunBudget{60'000'000'000, 5'000'000'000};
inline constexpr CommandBudget kProbeBudget{30'000'000'000, 5'000'000'000};
inline constexpr CommandBudget kSqliteBudget{30'000'000'000, 10'000'000'000};
inline constexpr CommandBudget kCompareBudget{60'000'000'000, 10'000'000'000};
// check's quick budget leaves room for inspect and setup within 5 s.
inline constexpr CommandBudget kCheckBudget{30'000'000'000, 3'500'000'000};

// The budget in ns: --budget's duration, else the command's quick or default one.
// InvalidArgument for a --budget that is not a duration.
Result<std::uint64_t> ResolveBudget(const BudgetRequest& request, CommandBudget budget);
// quick and the budget as context.options records them.
nlohmann::json BudgetOptions(const BudgetRequest& request, std::uint64_t budget_ns);
// A plan for command on paths with what every measuring command records: its options, the
// budget, the repeats and whether flushes are counted.
Plan PlanFor(const std::string& command, const std::vector<std::string>& paths,
             const BudgetRequest& request, std::uint64_t budget_ns);

// `durprobe run`: half of each path's share to the probes (with --writers' cells among them),
// half to the SQLite matrix.
Result<Plan> MakeRunPlan(platform::Platform& platform, const std::vector<std::string>& paths,
                         const ProbeRequest& probe, const SqliteMatrixRequest& matrix,
                         const BudgetRequest& budget);
// `durprobe probe`: the probes (pg_test_fsync's with --pg) and --writers' cells, each path an
// equal share.
Result<Plan> MakeProbeCommandPlan(platform::Platform& platform,
                                  const std::vector<std::string>& paths, const ProbeRequest& probe,
                                  const BudgetRequest& budget);
// `durprobe sqlite`: the matrix with its correlation probes (unless no_probes), the workloads
// and crashsim (run/budget.h SplitSqlite).
Result<Plan> MakeSqliteCommandPlan(platform::Platform& platform,
                                   const std::vector<std::string>& paths,
                                   const SqliteRequest& sqlite, const BudgetRequest& budget);
// `durprobe compare`: probe rounds interleaved over the paths, every path the same slice, then
// the matrix (run/budget.h SplitCompare).
Result<Plan> MakeComparePlan(platform::Platform& platform, const std::vector<std::string>& paths,
                             const CompareRequest& compare, const BudgetRequest& budget);
// `durprobe inspect`: each path inspected, nothing measured.
Plan MakeInspectPlan(const std::vector<std::string>& paths);
// `durprobe crashsim`: the configurations asked, simulated on each path.
Plan MakeCrashsimCommandPlan(const std::vector<std::string>& paths,
                             const CrashsimRequest& crashsim);

}  // namespace durprobe::run
