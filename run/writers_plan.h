// The concurrency phase's part of a plan (run/plan.h ConcurrencyPlan) from --writers and its
// companions (run/requests.h WritersRequest): the writer counts, modes and primitive checked,
// and the cells cut from a budget.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "platform/status.h"
#include "run/plan.h"
#include "run/requests.h"

namespace durprobe::run {

// Each writer count's share of the concurrency phase's per-cell time goes to warm-up first.
inline constexpr std::uint64_t kConcurrencyWarmupOps = 5;

// The writer counts asked (1 always among them: scaling is against it), ascending;
// InvalidArgument naming the bad value otherwise.
Result<std::vector<std::uint32_t>> ParseWriters(const std::vector<std::string>& items);

// The cells the request asks for before any budget cap: writer counts x modes, plus the
// queue-depth run; 0 when --writers was not given or is invalid.
std::size_t CellCount(const WritersRequest& request);

// The concurrency plan for budget_ns on one path, the writer counts capped by it
// (run/budget.h SplitConcurrency).
Result<ConcurrencyPlan> MakeConcurrencyPlan(const WritersRequest& request, std::uint64_t budget_ns,
                                            std::uint64_t queue_depth_file_size);

// InvalidArgument when --writers comes with a --patterns other than overwrite: every writer
// overwrites its own file (or region) in place, so the concurrency rows would silently measure
// another pattern than the one asked for.
Status CheckWritersPatterns(const WritersRequest& request,
                            const std::vector<std::string>& patterns);

}  // namespace durprobe::run
