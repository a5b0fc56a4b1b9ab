#include "cli/plan.h"

#include <iostream>

#include <fmt/ostream.h>

#include "platform/interrupt.h"
#include "platform/scratch.h"
#include "report/context.h"
#include "report/plausibility.h"
#include "report/sqlite_correlation.h"

namespace durprobe::cli {
namespace {

auto ShowProbeProgress(const std::string& path) {
  return [path](std::size_t index, std::size_t total, const probes::ProbeSpec& spec) {
    fmt::print(std::cerr, "[{}/{}] {}: {} {} {}\n", index + 1, total, path,
               probes::NameOf(spec.primitive), probes::NameOf(spec.pattern), spec.write_size);
  };
}

}  // namespace

Execution Execute(platform::Platform& platform, const Plan& plan) {
  Execution ex;
  ex.report.context = report::MakeContext(platform, plan.command);
  for (const std::string& path : plan.paths) {
    report::Target target;
    target.path = path;
    Result<std::unique_ptr<platform::ScratchDir>> scratch =
        platform::ScratchDir::Create(platform, path);
    if (!scratch.ok()) {
      ex.status = Status::InvalidArgument("cannot create a scratch directory in " + path + ": " +
                                          scratch.status().message());
      return ex;
    }
    if (plan.run_probes) {
      probes::ProbePlan probe_plan = plan.probes;
      if (plan.verbose) probe_plan.on_start = ShowProbeProgress(path);
      target.probes = probes::RunProbes(platform, (*scratch)->path(), probe_plan);
    }
    for (report::Finding& f : report::PlausibilityFindings(target, report::StorageFacts{})) {
      target.findings.push_back(std::move(f));
    }
    if (plan.run_sqlite && platform::InterruptSignal() == 0) {
      report::AddSqliteResults(target, sqlite_bench::RunCommitMatrix(platform, (*scratch)->path(), plan.sqlite));
    }
    if (plan.run_workloads && platform::InterruptSignal() == 0) {
      target.sqlite_workloads = sqlite_bench::RunWorkloads(platform, (*scratch)->path(), plan.workloads);
    }
    Status removed = (*scratch)->Remove();
    ex.report.targets.push_back(std::move(target));
    if (int sig = platform::InterruptSignal(); sig != 0) {
      ex.status = Status::Interrupted(sig);
      return ex;
    }
    if (!removed.ok()) {
      ex.status = Status::Error("could not remove scratch: " + removed.message());
      return ex;
    }
  }
  return ex;
}

}  // namespace durprobe::cli
