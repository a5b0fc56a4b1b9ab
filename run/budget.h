// How a run's total budget is split between paths, phases and items. Pure functions: the numbers
// a plan gets are decided here, and unit-tested, not inside the subcommands.
#pragma once

#include <cstddef>
#include <cstdint>

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
// shared by the paths; each probe, op and round on each path gets one equal slice.
struct CompareSplit {
  std::uint64_t probe_ns = 0;   // all probe rounds on all paths together
  std::uint64_t sqlite_ns = 0;  // per path, the matrix
  std::size_t slices = 0;       // (probes + ops) x paths x rounds
};
CompareSplit SplitCompare(std::uint64_t total_ns, std::size_t paths, std::size_t probes,
                          std::size_t ops, int rounds, bool sqlite);

}  // namespace durprobe::run
