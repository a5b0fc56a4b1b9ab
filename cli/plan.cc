#include "cli/plan.h"

#include <iostream>

#include <fmt/ostream.h>

#include "platform/inspect.h"
#include "platform/interrupt.h"
#include "platform/scratch.h"
#include "report/context.h"
#include "report/mount_findings.h"
#include "report/plausibility.h"
#include "report/probe_findings.h"
#include "report/sqlite_correlation.h"
#include "run/scratch_need.h"

namespace durprobe::cli {
namespace {

auto ShowProbeProgress(const std::string& path) {
  return [path](std::size_t index, std::size_t total, const probes::ProbeSpec& spec) {
    fmt::print(std::cerr, "[{}/{}] {}: {} {} {}\n", index + 1, total, path,
               probes::NameOf(spec.primitive), probes::NameOf(spec.pattern), spec.write_size);
  };
}

// Inspecting writes nothing; only measurements need a scratch directory.
bool NeedsScratch(const Plan& plan) {
  return plan.run_probes || plan.run_sqlite || plan.run_workloads;
}

run::ScratchParts ScratchPartsOf(const Plan& plan) {
  return {.probe_specs = plan.run_probes ? &plan.probes.specs : nullptr,
          .op_options = plan.probes.op_options,
          .matrix = plan.run_sqlite ? &plan.sqlite : nullptr,
          .workloads = plan.run_workloads ? &plan.workloads : nullptr};
}

}  // namespace

// Identification never stops a run: what could not be identified becomes a finding.
void InspectTarget(platform::Platform& platform, const report::Context& context,
                   report::Target& target) {
  Result<platform::MountInfo> mount = platform::InspectPath(platform, target.path);
  if (mount.ok()) {
    for (report::Finding& f : report::MountFindings(*mount)) target.findings.push_back(f);
    target.mount = std::move(*mount);
  } else {
    target.findings.push_back({report::Severity::kWarn, "inspect_failed",
                               "could not identify the mount: " + mount.status().message()});
  }
  for (report::Finding& f : report::EnvironmentFindings(context)) target.findings.push_back(f);
}

Execution Execute(platform::Platform& platform, const Plan& plan) {
  Execution ex;
  ex.report.context = report::MakeContext(platform, plan.command);
  for (const std::string& path : plan.paths) {
    report::Target target;
    target.path = path;
    if (plan.run_inspect) InspectTarget(platform, ex.report.context, target);
    if (!NeedsScratch(plan)) {
      ex.report.targets.push_back(std::move(target));
      continue;
    }
    ex.status = run::CheckFreeSpace(platform, path, run::ScratchNeedBytes(ScratchPartsOf(plan)));
    if (!ex.status.ok()) return ex;
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
    report::StorageFacts facts =
        target.mount ? report::StorageFactsOf(*target.mount) : report::StorageFacts{};
    for (report::Finding& f : report::ProbeErrorFindings(target)) target.findings.push_back(f);
    for (report::Finding& f : report::PlausibilityFindings(target, facts)) {
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
