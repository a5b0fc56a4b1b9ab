// A Plan is what the command line asked for; Execute runs it over every target path and returns
// the report. Subcommands build plans; tests can run them without the binary.
#pragma once

#include <string>
#include <vector>

#include "platform/platform.h"
#include "probes/runner.h"
#include "report/report.h"
#include "sqlite_bench/commit_bench.h"
#include "sqlite_bench/crashsim.h"
#include "sqlite_bench/workloads.h"

namespace durprobe::cli {

struct Plan {
  std::string command;             // subcommand name, recorded in the report's context
  std::vector<std::string> paths;  // resolved, absolute
  bool verbose = false;             // progress lines on stderr
  bool run_inspect = false;        // mount, filesystem, device, container and their findings
  bool run_probes = false;
  probes::ProbePlan probes;
  bool run_sqlite = false;          // the commit matrix, after the probes it is explained by
  sqlite_bench::MatrixPlan sqlite;
  bool run_workloads = false;       // the SQLite workloads beyond commits, after the matrix
  sqlite_bench::WorkloadPlan workloads{};
  bool run_crashsim = false;        // simulated power cuts, after everything else on the path
  sqlite_bench::CrashsimPlan crashsim{};
};

struct Execution {
  report::Report report;
  Status status;  // not ok when a target could not be measured at all, or on interruption
};

Execution Execute(platform::Platform& platform, const Plan& plan);

// Fills target.mount and adds the mount and environment findings; what cannot be identified
// becomes a finding (identification never stops a run).
void InspectTarget(platform::Platform& platform, const report::Context& context,
                   report::Target& target);

}  // namespace durprobe::cli
