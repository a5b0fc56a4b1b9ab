#include "run/check_command_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "gate/concurrency_rule.h"
#include "platform/crash_device.h"
#include "run/check_plan.h"
#include "run/command_plans.h"
#include "run/writers_plan.h"

namespace durprobe::run {

Result<probes::LoadRates> ParseLoad(const std::string& text) {
  probes::LoadRates rates;
  std::size_t comma = text.find(',');
  auto bad = [&] {
    return Status::InvalidArgument(fmt::format(
        "invalid --background-load '{}': expected READS,WRITES per second, e.g. 200,100", text));
  };
  if (comma == std::string::npos) return bad();
  char* end = nullptr;
  std::string r = text.substr(0, comma), w = text.substr(comma + 1);
  rates.reads_per_sec = std::strtod(r.c_str(), &end);
  if (r.empty() || *end != '\0') return bad();
  rates.writes_per_sec = std::strtod(w.c_str(), &end);
  if (w.empty() || *end != '\0') return bad();
  if (rates.reads_per_sec < 0 || rates.writes_per_sec < 0 ||
      rates.reads_per_sec + rates.writes_per_sec <= 0 ||
      rates.reads_per_sec + rates.writes_per_sec > 1e6) {
    return Status::InvalidArgument(fmt::format(
        "invalid --background-load '{}': rates must be 0 or more, not both 0, at most 1e6", text));
  }
  return rates;
}

Result<WritersRequest> CheckWriters(const WritersRequest& asked, const gate::Policy& policy) {
  Result<gate::ConcurrencyNeeds> needs = gate::NeedsOf(policy.concurrency);
  if (!needs.ok()) return needs.status();
  WritersRequest w = asked;
  if (needs->writers.empty()) return w;
  for (std::uint32_t n : needs->writers) w.writers.push_back(std::to_string(n));
  if (!asked.asked() || !asked.modes.empty()) {
    for (probes::WriterMode m : needs->modes) w.modes.push_back(std::string(probes::NameOf(m)));
  }
  w.primitive = std::string(probes::NameOf(needs->primitive));
  w.write_size = needs->write_size;
  return w;
}

Result<CheckCommandPlan> MakeCheckPlan(platform::Platform& platform,
                                       const std::vector<std::string>& paths,
                                       const gate::Policy& policy, const CheckRequest& o,
                                       const BudgetRequest& budget, bool dry_run) {
  Result<std::uint64_t> budget_ns = ResolveBudget(budget, kCheckBudget);
  if (!budget_ns.ok()) return budget_ns.status();
  std::optional<probes::LoadRates> asked_load;
  if (!o.background_load.empty()) {
    Result<probes::LoadRates> rates = ParseLoad(o.background_load);
    if (!rates.ok()) return rates.status();
    asked_load = *rates;
  }
  CheckCommandPlan out;
  out.load = CheckLoad(asked_load, policy);
  Plan& plan = out.plan;
  plan = PlanFor("check", paths, budget, *budget_ns);
  plan.run_inspect = true;  // the facts, the findings and the plausibility checks need it
  std::vector<probes::ProbeSpec> specs = policy.ProbeSpecs();
  std::vector<sqlite_bench::CommitConfig> configs = policy.CommitConfigs();
  Result<WritersRequest> writers = CheckWriters(o.writers, policy);
  if (!writers.ok()) return writers.status();
  const CheckShares shares = SplitCheckBudget(*budget_ns / paths.size(), !specs.empty(),
                                              writers->asked(), !configs.empty());
  if (writers->asked()) {
    Result<ConcurrencyPlan> c =
        MakeConcurrencyPlan(*writers, shares.concurrency_ns, plan.probes.op_options.file_size);
    if (!c.ok()) return c.status();
    plan.run_concurrency = true;
    plan.concurrency = *c;
  }
  if (!specs.empty()) {
    plan.run_probes = true;
    plan.probes.specs = specs;
    plan.probes.rule = CheckProbeRule(shares.probes_ns, specs.size());
    plan.probes.reserves = CheckReserves(policy, specs);
    if (policy.probe_file_size != 0) plan.probes.op_options.file_size = policy.probe_file_size;
    for (const probes::ProbeSpec& spec : specs) {
      if (probes::BytesPerOp(spec) > plan.probes.op_options.file_size) {
        return Status::InvalidArgument(
            fmt::format("write size {} is larger than the probe file ({})",
                        probes::BytesPerOp(spec), plan.probes.op_options.file_size));
      }
    }
  }
  if (!configs.empty()) {
    plan.run_sqlite = true;
    plan.sqlite.configs = configs;
    plan.sqlite.options.budget_ns = sqlite_bench::PerConfigBudget(shares.sqlite_ns, configs.size());
  }
  // fsync_error_reported is measured on the crash device: durprobe faults on each path, its
  // filesystem made afresh per experiment (SQLite's part left out: no rule reads it).
  if (std::find(policy.facts.begin(), policy.facts.end(), gate::Fact::kFsyncErrorReported) !=
      policy.facts.end()) {
    if (!dry_run) {
      if (Status s = platform::CrashDeviceMissing(platform); !s.ok()) {
        return Status::InvalidArgument("check: fsync_error_reported runs durprobe faults: " +
                                       s.message());
      }
    }
    plan.run_faults = true;
    plan.faults.sqlite = false;
  }
  return out;
}

}  // namespace durprobe::run
