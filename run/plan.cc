#include "run/plan.h"

#include <fmt/format.h>

#include "model/labels.h"

namespace durprobe::run {

nlohmann::json Describe(const Plan& plan) {
  nlohmann::json j = plan.options.is_object() ? plan.options : nlohmann::json::object();
  j["schedule"] = plan.schedule == Schedule::kInterleaved ? "interleaved" : "path_by_path";
  j["count_flushes"] = plan.count_flushes;
  if (plan.schedule == Schedule::kInterleaved) j["rounds"] = plan.rounds;
  if (plan.Repeats() > 1) {
    j["repeat"] = plan.Repeats();
    j["budget_per"] = "repeat";  // budget_ns is each repeat's
  }
  if (plan.run_probes) {
    nlohmann::json specs = nlohmann::json::array();
    for (const probes::ProbeSpec& s : plan.probes.specs) specs.push_back(model::ProbeLabel(s));
    j["probes"] = specs;
    j["probe_max_ns"] = plan.probes.rule.max_ns;
    j["probe_min_ns"] = plan.probes.rule.min_ns;
    j["ci_target"] = plan.probes.rule.target_ci;
    j["file_size"] = plan.probes.op_options.file_size;
  }
  if (!plan.ops.empty()) {
    nlohmann::json ops = nlohmann::json::array();
    for (probes::FileOp op : plan.ops) ops.push_back(probes::NameOf(op));
    j["op_costs"] = ops;
  }
  if (plan.run_concurrency) {
    const ConcurrencyPlan& c = plan.concurrency;
    nlohmann::json modes = nlohmann::json::array();
    for (probes::WriterMode m : c.modes) modes.push_back(probes::NameOf(m));
    j["concurrency"] = {{"writers", c.writers},
                        {"modes", modes},
                        {"primitive", probes::NameOf(c.primitive)},
                        {"write_size", c.write_size},
                        {"max_ns", c.rule.max_ns},
                        {"file_size", c.file_size},
                        {"queue_depth_ns", c.queue_depth_ns}};
  }
  if (plan.run_sqlite) {
    nlohmann::json configs = nlohmann::json::array();
    for (const sqlite_bench::CommitConfig& c : plan.sqlite.configs) {
      configs.push_back(sqlite_bench::Label(c));
    }
    j["sqlite_configs"] = configs;
    j["sqlite_config_budget_ns"] = plan.sqlite.options.budget_ns;
    j["sqlite_repetitions"] = plan.sqlite.options.repetitions;
    j["sqlite_fixed_commits"] = plan.sqlite.options.fixed_commits;
    j["sqlite_warmup_commits"] = plan.sqlite.options.warmup_commits;
  }
  if (plan.run_workloads) {
    nlohmann::json names = nlohmann::json::array();
    for (sqlite_bench::Workload w : sqlite_bench::SelectedWorkloads(plan.workloads)) {
      names.push_back(sqlite_bench::NameOf(w));
    }
    j["workloads"] = names;
    j["workload_budget_ns"] = plan.workloads.options.budget_ns;
  }
  if (plan.run_crashsim) {
    nlohmann::json configs = nlohmann::json::array();
    for (const sqlite_bench::CrashsimConfig& c : plan.crashsim.configs) {
      configs.push_back(fmt::format("{}/{} x{}", sqlite_bench::NameOf(c.journal),
                                    sqlite_bench::NameOf(c.sync), c.rows_per_commit));
    }
    j["crashsim_configs"] = configs;
    j["crashsim_trials"] = plan.crashsim.options.trials;
    j["crashsim_seed"] = plan.crashsim.options.seed;
    j["crashsim_device"] = sqlite_bench::DeviceLabel(plan.crashsim.options.device);
  }
  if (plan.run_crashtest) {
    nlohmann::json configs = nlohmann::json::array();
    for (const sqlite_bench::CrashsimConfig& c : plan.crashtest.configs) {
      configs.push_back(fmt::format("{}/{} x{}", sqlite_bench::NameOf(c.journal),
                                    sqlite_bench::NameOf(c.sync), c.rows_per_commit));
    }
    const sqlite_bench::CrashtestOptions& o = plan.crashtest.options;
    j["crashtest_configs"] = configs;
    j["crashtest_states"] = o.states;
    j["crashtest_seed"] = o.seed;
    j["crashtest_commits"] = o.workload.commits;
    j["crashtest_device"] = platform::CacheModeName(o.mode);
    j["crashtest_fs"] = o.fs.type.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.fs.type);
    j["crashtest_mount_options"] = o.fs.options;
    if (o.only_state) j["crashtest_state"] = platform::DescribeState(*o.only_state);
    if (!o.log.empty()) j["crashtest_log"] = o.log;
  }
  if (plan.run_faults) {
    nlohmann::json filesystems = nlohmann::json::array();
    for (const platform::FsSpec& fs : plan.faults.filesystems) {
      filesystems.push_back(fs.options.empty() ? fs.type : fs.type + ":" + fs.options);
    }
    j["faults_filesystems"] = filesystems;  // empty: the path's own
    j["faults_sqlite"] = plan.faults.sqlite;
  }
  return j;
}

}  // namespace durprobe::run
