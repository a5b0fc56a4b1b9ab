#include "probes/runner.h"

#include <fmt/format.h>

#include <algorithm>

#include "platform/interrupt.h"
#include "probes/primitive_ops.h"

namespace durprobe::probes {

namespace {

constexpr std::uint64_t kDefaultSize = 4096;

bool PlatformHas(platform::Platform& p, platform::SyncCall call) {
  return p.SupportsSync(call).ok();
}

std::vector<Pattern> OwnPatterns(Primitive p) {
  if (p == Primitive::kDirFsync) return {Pattern::kCreate, Pattern::kRename};
  // The per-write sync paths a database engine opens its log with: its log is overwritten in
  // place (preallocated or recycled segments), so that is the pattern they are probed with.
  if (OpsOf(p).write != WritePath::kPWrite) return {Pattern::kOverwrite};
  return {Pattern::kOverwrite, Pattern::kAppend};
}

}  // namespace

std::vector<ProbeSpec> DefaultSpecs(platform::Platform& platform) {
  Selection sel;
  for (const PrimitiveOps& row : PrimitiveTable()) {
    const bool in = row.in_default_set == InDefaultSet::kYes ||
                    (row.in_default_set == InDefaultSet::kWherePlatformHasIt && row.sync &&
                     PlatformHas(platform, *row.sync));
    if (in) sel.primitives.push_back(row.primitive);
  }
  return *ExpandSelection(platform, sel);
}

Result<std::vector<ProbeSpec>> ExpandSelection(platform::Platform& platform, const Selection& sel) {
  if (sel.primitives.empty()) {
    Selection with_defaults = sel;
    for (const ProbeSpec& d : DefaultSpecs(platform)) {
      if (std::find(with_defaults.primitives.begin(), with_defaults.primitives.end(),
                    d.primitive) == with_defaults.primitives.end()) {
        with_defaults.primitives.push_back(d.primitive);
      }
    }
    return ExpandSelection(platform, with_defaults);
  }
  std::vector<std::uint64_t> sizes = sel.sizes.empty() ? std::vector{kDefaultSize} : sel.sizes;
  std::vector<ProbeSpec> specs;
  for (Primitive prim : sel.primitives) {
    std::size_t before = specs.size();
    std::vector<Pattern> patterns = sel.patterns.empty() ? OwnPatterns(prim) : sel.patterns;
    for (Pattern pat : patterns) {
      if (prim == Primitive::kDirFsync) {  // no data is written: size does not apply
        ProbeSpec spec{prim, pat, 0};
        if (Validate(spec).ok()) specs.push_back(spec);
        continue;
      }
      for (std::uint64_t size : sizes) {
        ProbeSpec spec{prim, pat, size};
        // A pattern that does not go with the primitive is skipped; a size out of range is
        // wrong for every pattern, so it fails the selection.
        Status valid = Validate(spec);
        if (valid.ok()) {
          specs.push_back(spec);
        } else if (valid.out_of_range()) {
          return valid;
        }
      }
    }
    if (specs.size() == before) {
      return Status::InvalidArgument(
          fmt::format("none of the chosen patterns applies to primitive {}", NameOf(prim)));
    }
  }
  return specs;
}

StopRule RuleForBudget(std::uint64_t budget_ns, std::size_t n, double target_ci) {
  StopRule rule;
  rule.target_ci = target_ci;
  std::uint64_t per = n == 0 ? budget_ns : budget_ns / n;
  rule.max_ns = std::max<std::uint64_t>(per, kMinProbeNs);
  rule.min_ns = std::min<std::uint64_t>(rule.min_ns, rule.max_ns / 2);
  rule.warmup_ns = std::min<std::uint64_t>(rule.warmup_ns, rule.max_ns / 10);
  return rule;
}

bool TailMatters(const ProbeSpec& spec) {
  return (spec.primitive == Primitive::kFsync || spec.primitive == Primitive::kFdatasync) &&
         spec.pattern == Pattern::kOverwrite && spec.write_size == kDefaultSize &&
         spec.writes_per_op == 1 && spec.paced_per_sec == 0 && spec.work_us == 0;
}

bool WaitsForTail(const ProbeSpec& spec, const StopRule& rule) {
  return rule.tail_target_ci > 0.0 && (rule.tail_every_probe || TailMatters(spec));
}

std::uint64_t SharesOf(const ProbeSpec& spec, const StopRule& rule) {
  // Where every probe waits for its tail, they share alike.
  return WaitsForTail(spec, rule) && !rule.tail_every_probe ? kTailShares : 1;
}

std::uint64_t SharesOf(const std::vector<ProbeSpec>& specs, const StopRule& rule) {
  std::uint64_t n = 0;
  for (const ProbeSpec& spec : specs) n += SharesOf(spec, rule);
  return n;
}

StopRule PlanRule(std::uint64_t budget_ns, const std::vector<ProbeSpec>& specs, double target_ci) {
  StopRule tail;
  tail.tail_target_ci = kTailCiFactor * target_ci;
  StopRule rule = RuleForBudget(budget_ns, SharesOf(specs, tail), target_ci);
  rule.tail_target_ci = tail.tail_target_ci;
  return rule;
}

StopRule RuleFor(const ProbeSpec& spec, const StopRule& plan_rule) {
  StopRule rule = plan_rule;
  if (!WaitsForTail(spec, plan_rule)) rule.tail_target_ci = 0.0;
  rule.max_ns *= SharesOf(spec, plan_rule);
  return rule;
}

LoopOutcome SampleProbe(platform::Platform& platform, const std::string& scratch_dir,
                        const ProbeSpec& spec, const StopRule& rule, const OpOptions& options) {
  Result<std::unique_ptr<ProbeOp>> op = MakeProbeOp(platform, scratch_dir, spec, options);
  if (!op.ok()) {
    LoopOutcome out;
    out.status = op.status();
    return out;
  }
  StopRule paced = rule;
  if (spec.paced_per_sec > 0) paced.pace_ns = 1'000'000'000ull / spec.paced_per_sec;
  paced.work_ns = std::uint64_t{spec.work_us} * 1000;
  paced.work_round_trips = spec.work_round_trips;
  return Measure(platform, **op, paced);
}

ProbeResult ToResult(const ProbeSpec& spec, const LoopOutcome& loop, double target_ci) {
  ProbeResult r;
  r.spec = spec;
  r.caveat = std::string(CaveatOf(spec.primitive));
  r.ops = loop.ops;
  r.warmup_ops = loop.warmup_ops;
  r.seconds = static_cast<double>(loop.elapsed_ns) / 1e9;
  r.ops_per_sec = r.seconds > 0 ? static_cast<double>(r.ops) / r.seconds : 0.0;
  r.latency = Summarize(loop.total);
  r.histogram = NonEmptyBuckets(loop.total);
  r.converged = CiSupported(r.ops, r.seconds) && r.latency.p50_ci_relative <= target_ci;
  r.has_sync_part = loop.has_sync_part;
  if (r.has_sync_part) {
    r.sync_latency = Summarize(loop.sync);
    r.sync_histogram = NonEmptyBuckets(loop.sync);
  }
  r.sync_sample_every = loop.sync_sample_every;
  r.series = loop.series;
  r.cpu = loop.cpu;
  r.device_flushes = loop.flushes;
  if (!loop.status.ok()) {
    const Status& s = loop.status;
    r.outcome = OutcomeOf(s);
    r.reason = s.message();
  }
  return r;
}

ProbeResult RunProbe(platform::Platform& platform, const std::string& scratch_dir,
                     const ProbeSpec& spec, const StopRule& rule, const OpOptions& options) {
  return ToResult(spec, SampleProbe(platform, scratch_dir, spec, rule, options), rule.target_ci);
}

std::vector<ProbeResult> RunProbes(platform::Platform& platform, const std::string& scratch_dir,
                                   const ProbePlan& plan) {
  std::vector<ProbeResult> results;
  for (const ProbeSpec& spec : plan.specs) {
    if (plan.on_start) plan.on_start(results.size(), plan.specs.size(), spec);
    results.push_back(
        RunProbe(platform, scratch_dir, spec, RuleFor(spec, plan.rule), plan.op_options));
    if (results.back().outcome == Outcome::kInterrupted) break;
  }
  return results;
}

}  // namespace durprobe::probes
