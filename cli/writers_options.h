// --writers LIST (probe, run, check, compare): concurrent syncers and the queue-depth run, and
// the part of a plan they make (run/plan.h ConcurrencyPlan).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "platform/status.h"
#include "run/plan.h"

namespace durprobe::cli {

struct WritersOptions {
  std::vector<std::string> writers;  // counts, or "default" (1,2,4,8,16); empty: not asked
  std::vector<std::string> modes;    // empty: threads, processes, shared_file
  std::string primitive = "fdatasync";
  std::uint64_t write_size = 4096;  // not a flag: check's concurrency rules set it
  bool asked() const { return !writers.empty(); }
};

// Adds --writers, --writers-modes and --writers-primitive to app.
void AddWritersOptions(CLI::App& app, WritersOptions& options);

// The writer counts asked (1 always among them: scaling is against it), ascending;
// InvalidArgument naming the bad value otherwise.
Result<std::vector<std::uint32_t>> ParseWriters(const std::vector<std::string>& items);

// The cells the options ask for before any budget cap: writer counts x modes, plus the
// queue-depth run; 0 when --writers was not given or is invalid.
std::size_t CellCount(const WritersOptions& options);

// The concurrency plan for budget_ns on one path, the writer counts capped by it
// (run/budget.h SplitConcurrency).
Result<run::ConcurrencyPlan> MakeConcurrencyPlan(const WritersOptions& options,
                                                 std::uint64_t budget_ns,
                                                 std::uint64_t queue_depth_file_size);

// InvalidArgument when --writers comes with a --patterns other than overwrite: every writer
// overwrites its own file (or region) in place, so the concurrency rows would silently measure
// another pattern than the one asked for.
Status CheckWritersPatterns(const WritersOptions& options,
                            const std::vector<std::string>& patterns);

}  // namespace durprobe::cli
