// How a run's total budget is split between paths, phases and items. Pure functions: the numbers
// a plan gets are decided here, and unit-tested, not inside the subcommands.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace durprobe::run {

// `run`: the total is shared by the paths; each path's share goes half to the probes and half to
// the SQLite matrix.
struct RunSplit {
  std::uint64_t probe_ns = 0;   // per path
  std::uint64_t sqlite_ns = 0;  // per path
};
RunSplit SplitRun(std::uint64_t total_ns, std::size_t paths);

// `probe`: the total shared evenly by the paths.
std::uint64_t PerPath(std::uint64_t total_ns, std::size_t paths);

// `sqlite`: per path, the workloads (when selected) take half, or all when the matrix does not
// run; the correlation probes take kCorrelationProbeShare of what is left; the matrix the rest.
inline constexpr double kCorrelationProbeShare = 0.15;
struct SqliteSplit {
  std::uint64_t probe_ns = 0;     // per path, the correlation probes
  std::uint64_t matrix_ns = 0;    // per path, all configurations together
  std::uint64_t workload_ns = 0;  // per path, all selected workloads together
};
SqliteSplit SplitSqlite(std::uint64_t total_ns, std::size_t paths, bool matrix_runs,
                        bool probes_run, bool workloads_run);

// `compare`: half to the probe rounds (all of it with no SQLite), the other half to the matrix,
// shared by the paths; each probe, op and round on each path gets one equal slice. Rounds are
// dropped (one is always kept) while a slice would be shorter than probes::kMinProbeNs: the
// rounds that run fit the budget.
struct CompareSplit {
  std::uint64_t probe_ns = 0;   // all probe rounds on all paths together
  std::uint64_t sqlite_ns = 0;  // per path, the matrix
  std::size_t slices = 0;       // (probes + ops) x paths x rounds
  int rounds = 1;               // the rounds that fit, at most those asked for
};
CompareSplit SplitCompare(std::uint64_t total_ns, std::size_t paths, std::size_t probes,
                          std::size_t ops, int rounds, bool sqlite);

// The concurrency phase (--writers) on one path: ns shared by every writer count in every mode
// plus the queue-depth run, one equal cell each of at least kMinConcurrencyCellNs. When the cells
// do not fit, the largest writer counts are dropped (one writer is always kept): the list is
// capped by the budget, and the counts dropped are kept so the run can list them as not run.
inline constexpr std::uint64_t kMinConcurrencyCellNs = 300'000'000;
struct ConcurrencySplit {
  std::vector<std::uint32_t> writers;  // what fits, ascending
  std::vector<std::uint32_t> dropped;  // asked for but past the budget, ascending
  std::uint64_t cell_ns = 0;           // each cell's timed phase
};
ConcurrencySplit SplitConcurrency(std::uint64_t ns, std::vector<std::uint32_t> writers,
                                  std::size_t modes);
// The concurrency phase's part of ns shared with other items (probes, op costs) so that each of
// its cells and each other item get an equal slice: ns x cells / (cells + others).
std::uint64_t ConcurrencyShare(std::uint64_t ns, std::size_t cells, std::size_t others);

}  // namespace durprobe::run
