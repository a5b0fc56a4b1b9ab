#include "cli/plan.h"

#include "platform/interrupt.h"
#include "platform/scratch.h"
#include "report/context.h"
#include "report/sqlite_correlation.h"

namespace durprobe::cli {

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
    if (plan.run_probes) target.probes = probes::RunProbes(platform, (*scratch)->path(), plan.probes);
    if (plan.run_sqlite && platform::InterruptSignal() == 0) {
      report::AddSqliteResults(target, sqlite_bench::RunCommitMatrix(platform, (*scratch)->path(), plan.sqlite));
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
