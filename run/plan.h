// A Plan is what a subcommand asked to measure, already validated: the paths, what to run on each,
// and how the budget was split (run/budget.h). The executor (run/executor.h) runs it for run,
// probe, sqlite, compare and check alike.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/powercut.h"
#include "probes/concurrency.h"
#include "probes/op_cost.h"
#include "probes/runner.h"
#include "sqlite_bench/commit_bench.h"
#include "sqlite_bench/crashsim.h"
#include "sqlite_bench/crashtest.h"
#include "sqlite_bench/workloads.h"

namespace durprobe::run {

enum class Schedule {
  // Each path in turn: inspect, probes, SQLite, workloads; the console can show each target's
  // sections as they finish.
  kPathByPath,
  // compare: probe rounds interleaved over the paths (round 1: probe A on every path, probe B on
  // every path, ...), SQLite configurations likewise, so machine noise falls on all alike.
  kInterleaved,
};

// Concurrent syncers (--writers): every writer count in every mode, then the queue-depth run
// set beside serial synced writes. The budget decided writers and the rule (run/budget.h).
struct ConcurrencyPlan {
  std::vector<std::uint32_t> writers;  // ascending, 1 first when asked
  // Writer counts asked for that the budget left out (run/budget.h SplitConcurrency): each
  // mode's cell at each is listed as unfinished, reason budget, on every path.
  std::vector<std::uint32_t> dropped_writers;
  std::vector<probes::WriterMode> modes = probes::AllWriterModes();
  probes::Primitive primitive = probes::Primitive::kFdatasync;
  std::uint64_t write_size = 4096;
  probes::StopRule rule;               // per writer count and mode
  std::uint64_t file_size = 1u << 20;  // per writer
  std::uint64_t queue_depth_ns = 0;    // the queue-depth run; 0: not run
  std::uint64_t queue_depth_file_size = 16u << 20;
};

// `durprobe faults`: the filesystems to make on the crash device (empty: the path's own) and
// what to run on each.
struct FaultsPlan {
  std::vector<platform::FsSpec> filesystems;
  bool sqlite = true;  // SQLite's commit on a failing sync, DELETE and WAL
};

struct Plan {
  std::string command;       // subcommand name, recorded in the report's context
  std::string command_line;  // as typed, recorded in the context
  nlohmann::json options = nlohmann::json::object();  // recorded as context.options
  std::uint64_t budget_ns = 0;     // the whole command's; 0: no deadline (run/deadline.h)
  std::vector<std::string> paths;  // resolved, absolute
  Schedule schedule = Schedule::kPathByPath;
  int rounds = 1;  // kInterleaved: probe samples merged over this many rounds
  // --repeat: the measurement (the probes, the SQLite matrix; in kInterleaved each round of
  // them) runs this many times, and every figure gets its median and range over the repeats
  // (model/repeats.h). budget_ns is each repeat's: the run's deadline is budget_ns x repeats.
  int repeats = 1;

  bool run_inspect = false;  // mount, filesystem, device, container and their findings
  bool run_probes = false;
  probes::ProbePlan probes;
  std::vector<probes::FileOp> ops;  // per-operation costs (compare)
  bool run_concurrency = false;     // after the probes, before SQLite
  ConcurrencyPlan concurrency;
  bool run_sqlite = false;  // the commit matrix, after the probes it is explained by
  sqlite_bench::MatrixPlan sqlite;
  bool run_workloads = false;  // the SQLite workloads beyond commits, after the matrix
  sqlite_bench::WorkloadPlan workloads{};
  bool run_crashsim = false;  // simulated power cuts, after everything else on the path
  sqlite_bench::CrashsimPlan crashsim{};
  bool run_crashtest = false;  // power cuts on the crash device, after crashsim
  sqlite_bench::CrashtestPlan crashtest{};
  bool run_faults = false;  // failing writes on the crash device (durprobe faults), last
  FaultsPlan faults{};
  // A power-cut test's evidence file (--evidence on run, check, inspect): it joins each path's
  // device layer when it was made on that path's device and filesystem.
  std::optional<model::PowercutEvidence> powercut_evidence;
  // Count each measurement's device flushes (run/flush_counting.h); --no-flush-count: false.
  bool count_flushes = true;

  // The run's whole budget: each repeat gets budget_ns (0 stays 0: no deadline).
  std::uint64_t RunBudgetNs() const { return budget_ns * static_cast<std::uint64_t>(Repeats()); }
  int Repeats() const { return repeats > 1 ? repeats : 1; }

  // Whether the plan measures anything (and so needs a scratch directory).
  bool Measures() const {
    return run_probes || !ops.empty() || run_concurrency || run_sqlite || run_workloads ||
           run_crashsim || run_crashtest || run_faults;
  }
};

}  // namespace durprobe::run

namespace durprobe::run {

// What shaped the measurement, derived from the plan itself (so it is always true): the probe
// specs and their stop rule, the SQLite configurations and options, the workloads, the schedule.
// Merged over plan.options (where the CLI puts quick and the budget) into context.options.
nlohmann::json Describe(const Plan& plan);

}  // namespace durprobe::run
