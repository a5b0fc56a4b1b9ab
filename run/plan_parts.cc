#include "run/plan_parts.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "run/budget.h"
#include "run/writers_plan.h"
#include "sqlite_bench/build_info.h"
#include "text/units.h"

namespace durprobe::run {
namespace {

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

Result<probes::ProbePlan> MakeProbePlan(platform::Platform& platform, const ProbeRequest& o,
                                        std::uint64_t budget_ns) {
  if (Status s = CheckWritersPatterns(o.writers, o.patterns); !s.ok()) return s;
  probes::Selection sel;
  for (const std::string& p : o.primitives)
    sel.primitives.push_back(probes::PrimitiveNames().at(p));
  for (const std::string& p : o.patterns) sel.patterns.push_back(probes::PatternNames().at(p));
  for (const std::string& s : o.sizes) {
    Result<std::uint64_t> size = text::ParseSize(s);
    if (!size.ok()) return size.status();
    sel.sizes.push_back(*size);
  }
  Result<std::vector<probes::ProbeSpec>> specs = probes::ExpandSelection(platform, sel);
  if (!specs.ok()) return specs.status();
  probes::ProbePlan plan;
  plan.specs = std::move(*specs);
  plan.rule = probes::PlanRule(budget_ns, plan.specs, o.target_ci_percent / 100.0);
  if (!o.file_size.empty()) {
    Result<std::uint64_t> file_size = text::ParseSize(o.file_size);
    if (!file_size.ok()) return file_size.status();
    plan.op_options.file_size = *file_size;
  }
  for (const probes::ProbeSpec& spec : plan.specs) {
    if (spec.write_size > plan.op_options.file_size) {
      return Status::InvalidArgument(fmt::format("--file-size {} is smaller than the write size {}",
                                                 plan.op_options.file_size, spec.write_size));
    }
  }
  return plan;
}

Status AddConcurrency(const ProbeRequest& o, std::uint64_t probe_ns, Plan& plan) {
  if (!o.writers.asked()) return Status::Ok();
  std::uint64_t share = ConcurrencyShare(probe_ns, CellCount(o.writers), plan.probes.specs.size());
  Result<std::uint64_t> file_size =
      o.file_size.empty() ? kDefaultProbeFileSize : text::ParseSize(o.file_size);
  if (!file_size.ok()) return file_size.status();
  Result<ConcurrencyPlan> c = MakeConcurrencyPlan(o.writers, share, *file_size);
  if (!c.ok()) return c.status();
  plan.run_concurrency = true;
  plan.concurrency = *c;
  plan.probes.rule =
      probes::PlanRule(probe_ns - share, plan.probes.specs, o.target_ci_percent / 100.0);
  return Status::Ok();
}

Result<sqlite_bench::MatrixPlan> MakeSqlitePlan(platform::Platform& platform,
                                                const SqliteMatrixRequest& o,
                                                std::uint64_t budget_ns) {
  sqlite_bench::MatrixSelection sel;
  for (const std::string& j : o.journal_modes)
    sel.journals.push_back(sqlite_bench::JournalModeNames().at(j));
  for (const std::string& s : o.synchronous)
    sel.syncs.push_back(sqlite_bench::SynchronousNames().at(s));
  sel.all = o.all;
  sel.batches.clear();
  for (const std::string& b : o.batches)
    sel.batches.push_back(static_cast<std::uint32_t>(std::stoul(b)));
  sel.statements.clear();
  for (const std::string& s : o.statements)
    sel.statements.push_back(sqlite_bench::StatementModeNames().at(s));
  Result<std::uint64_t> payload = text::ParseSize(o.payload);
  if (!payload.ok()) return payload.status();
  if (*payload == 0 || *payload > kMaxPayload) {
    return Status::InvalidArgument(
        fmt::format("--payload must be between 1 byte and 1 MiB, not {}", o.payload));
  }
  sel.payload_bytes = static_cast<std::uint32_t>(*payload);
  // PRAGMA fullfsync only means something where the OS has F_FULLFSYNC (macOS).
  sel.fullfsync_dimension = platform.SupportsSync(platform::SyncCall::kFullFsync).ok();
  sqlite_bench::MatrixPlan plan;
  plan.configs = sqlite_bench::ExpandMatrix(sel);
  plan.options.budget_ns = sqlite_bench::PerConfigBudget(budget_ns, plan.configs.size());
  plan.options.repetitions = o.repetitions;
  plan.options.fixed_commits = o.commits;
  plan.options.warmup_commits = o.warmup;
  return plan;
}

probes::ProbePlan CorrelationProbePlan(platform::Platform& platform, std::uint64_t budget_ns) {
  probes::ProbePlan plan;
  for (bool fullfsync : {false, true}) {
    if (fullfsync && !platform.SupportsSync(platform::SyncCall::kFullFsync).ok()) continue;
    probes::Primitive p =
        probes::PrimitiveNames().at(sqlite_bench::SqliteSyncPrimitive(platform, fullfsync));
    plan.specs.push_back({p, probes::Pattern::kOverwrite, 4096});
    plan.specs.push_back({p, probes::Pattern::kAppend, 4096});
  }
  plan.specs.push_back({probes::Primitive::kDirFsync, probes::Pattern::kCreate, 0});
  plan.rule = probes::RuleForBudget(budget_ns, plan.specs.size(), 0.05);
  return plan;
}

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

bool RunsCommitMatrix(const SqliteWorkloadRequest& o) {
  return o.workloads.empty() || Has(o.workloads, kCommitsWorkload);
}

Result<sqlite_bench::WorkloadPlan> MakeWorkloadPlan(const SqliteWorkloadRequest& o,
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

std::vector<sqlite_bench::CrashsimConfig> CrashsimConfigsFor(
    const std::vector<sqlite_bench::CommitConfig>& matrix) {
  std::vector<sqlite_bench::CrashsimConfig> configs;
  for (const sqlite_bench::CommitConfig& c : matrix) {
    sqlite_bench::CrashsimConfig crash{c.journal, c.sync, c.rows_per_commit};
    bool seen = false;
    for (const sqlite_bench::CrashsimConfig& k : configs) {
      seen = seen || (k.journal == crash.journal && k.sync == crash.sync &&
                      k.rows_per_commit == crash.rows_per_commit);
    }
    if (!seen) configs.push_back(crash);
  }
  return configs;
}

sqlite_bench::CrashsimPlan MakeCrashsimPlan(const CrashsimRequest& o,
                                            std::vector<sqlite_bench::CrashsimConfig> configs) {
  sqlite_bench::CrashsimPlan plan;
  plan.configs = std::move(configs);
  plan.options.trials = o.trials;
  plan.options.seed = o.seed;
  plan.options.workload.commits = o.commits;
  plan.options.powersafe_overwrite = !o.no_psow;
  for (const std::string& d : o.device) {
    if (d == "atomic_sectors") plan.options.device.atomic_sectors = true;
    if (d == "ordered_metadata") plan.options.device.ordered_metadata = true;
    if (d == "safe_append") plan.options.device.safe_append = true;
    if (d == "sequential") plan.options.device.sequential = true;
  }
  return plan;
}

}  // namespace durprobe::run
