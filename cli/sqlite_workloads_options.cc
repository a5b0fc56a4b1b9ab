#include "cli/sqlite_workloads_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "cli/standard_options.h"
#include "cli/validators.h"

namespace durprobe::cli {
namespace {

std::vector<std::string> ValidNames() {
  std::vector<std::string> names;
  for (sqlite_bench::Workload w : sqlite_bench::AllWorkloads()) {
    names.emplace_back(sqlite_bench::NameOf(w));
  }
  names.emplace_back(kCommitsWorkload);
  names.emplace_back("all");
  return names;
}

bool Has(const std::vector<std::string>& v, const std::string& name) {
  return std::find(v.begin(), v.end(), name) != v.end();
}

Result<double> ParseNumber(const std::string& text) {
  double v = 0.0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return Status::InvalidArgument("");
  }
  return v;
}

}  // namespace

Result<double> ParseShare(const std::string& text) {
  auto bad = [&] {
    return Status::InvalidArgument(
        fmt::format("'{}' is not a share between 0 and 1 (1/3, 0.25, 25%)", text));
  };
  double share = 0.0;
  if (std::size_t slash = text.find('/'); slash != std::string::npos) {
    Result<double> num = ParseNumber(text.substr(0, slash));
    Result<double> den = ParseNumber(text.substr(slash + 1));
    if (!num.ok() || !den.ok() || *den <= 0.0) return bad();
    share = *num / *den;
  } else if (!text.empty() && text.back() == '%') {
    Result<double> pct = ParseNumber(text.substr(0, text.size() - 1));
    if (!pct.ok()) return bad();
    share = *pct / 100.0;
  } else {
    Result<double> v = ParseNumber(text);
    if (!v.ok()) return bad();
    share = *v;
  }
  if (!(share >= 0.0 && share <= 1.0)) return bad();
  return share;
}

void AddSqliteWorkloadOptions(CLI::App& app, SqliteWorkloadOptions& o) {
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
            Result<double> s = ParseShare(value);
            return s.ok() ? std::string() : s.status().message();
          },
          "SHARE"));
}

bool RunsCommitMatrix(const SqliteWorkloadOptions& o) {
  return o.workloads.empty() || Has(o.workloads, kCommitsWorkload);
}

Result<sqlite_bench::WorkloadPlan> MakeWorkloadPlan(const SqliteWorkloadOptions& o,
                                                    std::uint64_t budget_ns) {
  sqlite_bench::WorkloadPlan plan;
  for (sqlite_bench::Workload w : sqlite_bench::AllWorkloads()) {
    if (Has(o.workloads, "all") || Has(o.workloads, std::string(sqlite_bench::NameOf(w)))) {
      plan.workloads.push_back(w);
    }
  }
  Result<double> share = ParseShare(o.write_share);
  if (!share.ok()) return share.status();
  plan.options.budget_ns = budget_ns;
  plan.options.threads = o.threads;
  plan.options.processes = o.processes;
  plan.options.write_share = *share;
  return plan;
}

}  // namespace durprobe::cli
