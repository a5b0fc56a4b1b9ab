#include "cli/sqlite_workloads_options.h"

#include "cli/standard_options.h"
#include "cli/validators.h"
#include "run/plan_parts.h"

namespace durprobe::cli {
namespace {

std::vector<std::string> ValidNames() {
  std::vector<std::string> names;
  for (sqlite_bench::Workload w : sqlite_bench::AllWorkloads()) {
    names.emplace_back(sqlite_bench::NameOf(w));
  }
  names.emplace_back(run::kCommitsWorkload);
  names.emplace_back("all");
  return names;
}

}  // namespace

void AddSqliteWorkloadOptions(CLI::App& app, run::SqliteWorkloadRequest& o) {
  AddListOption(app, "--workloads", o.workloads,
                "Workloads beyond the commit matrix: read, connect, locks, concurrency, "
                "wal_growth, all (comma-separated); add 'commits' to run the matrix as well")
      ->transform(OneOf(ValidNames(), "workload"));
  app.add_option("--threads", o.threads, "Concurrency workload: worker threads (default 10)")
      ->check(InRange(1, 256));
  app.add_option("--processes", o.processes,
                 "Concurrency workload: worker processes for its fork variant (default 4, 0: skip)")
      ->check(InRange(0, 64));
  app.add_option("--write-share", o.write_share,
                 "Concurrency workload: share of operations that write (default 1/3)")
      ->type_name("SHARE")
      ->check(CLI::Validator(
          [](std::string& value) {
            Result<double> s = run::ParseShare(value);
            return s.ok() ? std::string() : s.status().message();
          },
          "SHARE"));
}

}  // namespace durprobe::cli
