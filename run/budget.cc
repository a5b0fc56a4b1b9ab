#include "run/budget.h"

#include <algorithm>

#include "probes/runner.h"

namespace durprobe::run {

RunSplit SplitRun(std::uint64_t total_ns, std::size_t paths) {
  std::uint64_t half = PerPath(total_ns, paths) / 2;
  return {half, half};
}

std::uint64_t PerPath(std::uint64_t total_ns, std::size_t paths) {
  return paths == 0 ? total_ns : total_ns / paths;
}

SqliteSplit SplitSqlite(std::uint64_t total_ns, std::size_t paths, bool matrix_runs,
                        bool probes_run, bool workloads_run) {
  SqliteSplit s;
  std::uint64_t per_path = PerPath(total_ns, paths);
  if (workloads_run) s.workload_ns = matrix_runs ? per_path / 2 : per_path;
  if (!matrix_runs) return s;
  std::uint64_t rest = per_path - s.workload_ns;
  if (probes_run) s.probe_ns = static_cast<std::uint64_t>(double(rest) * kCorrelationProbeShare);
  s.matrix_ns = rest - s.probe_ns;
  return s;
}

CompareSplit SplitCompare(std::uint64_t total_ns, std::size_t paths, std::size_t probes,
                          std::size_t ops, int rounds, bool sqlite) {
  CompareSplit s;
  s.probe_ns = sqlite ? total_ns / 2 : total_ns;
  if (sqlite) s.sqlite_ns = PerPath(total_ns - s.probe_ns, paths);
  s.rounds = rounds > 0 ? rounds : 1;
  const std::size_t per_round = (probes + ops) * paths;
  while (s.rounds > 1 &&
         per_round * static_cast<std::size_t>(s.rounds) * probes::kMinProbeNs > s.probe_ns) {
    --s.rounds;
  }
  s.slices = per_round * static_cast<std::size_t>(s.rounds);
  return s;
}

ConcurrencySplit SplitConcurrency(std::uint64_t ns, std::vector<std::uint32_t> writers,
                                  std::size_t modes) {
  std::sort(writers.begin(), writers.end());
  writers.erase(std::unique(writers.begin(), writers.end()), writers.end());
  ConcurrencySplit s;
  s.writers = writers;
  const std::size_t m = std::max<std::size_t>(modes, 1);
  auto cell = [&] { return ns / (s.writers.size() * m + 1); };
  while (s.writers.size() > 1 && cell() < kMinConcurrencyCellNs) {
    s.dropped.insert(s.dropped.begin(), s.writers.back());
    s.writers.pop_back();
  }
  s.cell_ns = std::max(cell(), kMinConcurrencyCellNs);
  return s;
}

std::uint64_t ConcurrencyShare(std::uint64_t ns, std::size_t cells, std::size_t others) {
  if (cells == 0) return 0;
  return static_cast<std::uint64_t>(static_cast<double>(ns) * static_cast<double>(cells) /
                                    static_cast<double>(cells + others));
}

}  // namespace durprobe::run
