#include "run/check_remeasure.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "analysis/drift.h"
#include "gate/rules.h"
#include "model/labels.h"
#include "platform/interrupt.h"
#include "platform/scratch.h"
#include "probes/runner.h"
#include "run/deadline.h"
#include "run/reference.h"
#include "text/units.h"

namespace durprobe::run {
namespace {

// The probe an unstable rule reads, as a policy of that one rule; nullopt for a rule that reads
// no probe (a SQLite commit rule) or that the drift did not leave unstable.
struct ProbeRule {
  probes::ProbeSpec spec;
  gate::Policy alone;
};
std::optional<ProbeRule> ProbeRuleOf(const gate::Policy& policy, const model::CheckResult& c) {
  if (c.outcome != model::CheckOutcome::kUnstable || !(c.drift_low || c.undecided)) {
    return std::nullopt;
  }
  for (const gate::LatencyRule& r : policy.latency) {
    if (r.name != c.rule) continue;
    ProbeRule p{r.spec, {}};
    p.alone.latency = {r};
    return p;
  }
  for (const gate::RateRule& r : policy.rates) {
    if (r.name != c.rule) continue;
    ProbeRule p{r.spec, {}};
    p.alone.rates = {r};
    return p;
  }
  return std::nullopt;
}

// The unstable rules on one probe of one path: indexes into report.checks, and their policies.
struct Group {
  std::string path;
  probes::ProbeSpec spec;
  std::vector<std::pair<std::size_t, gate::Policy>> rules;
};

std::vector<Group> GroupsOf(const gate::Policy& policy, const model::Report& report) {
  std::vector<Group> groups;
  for (std::size_t i = 0; i < report.checks.size(); ++i) {
    std::optional<ProbeRule> r = ProbeRuleOf(policy, report.checks[i]);
    if (!r) continue;
    const std::string& path = report.checks[i].path;
    auto g = std::find_if(groups.begin(), groups.end(),
                          [&](const Group& x) { return x.path == path && x.spec == r->spec; });
    if (g == groups.end()) g = groups.insert(groups.end(), Group{path, r->spec, {}});
    g->rules.emplace_back(i, std::move(r->alone));
  }
  return groups;
}

// One re-measure of spec in dir within share_ns (kNoDeadline: none): a tenth of it for each
// reference sample (ReferenceRule), the probe's warm-up and timed phase within most of the rest.
Remeasure MeasureOnce(platform::Platform& platform, const std::string& dir,
                      const probes::ProbeSpec& spec, const RemeasurePlan& plan,
                      std::uint64_t share_ns) {
  model::Target scratch;  // collects the reference samples and a failed sample's finding
  const std::uint64_t origin = platform.NowNanos();
  const std::string label = model::ProbeLabel(spec);
  const std::uint64_t file_size = plan.op_options.file_size;
  SampleReference(platform, dir, label, origin, scratch, file_size, share_ns);
  probes::StopRule rule = probes::RuleFor(spec, plan.rule);
  if (share_ns != kNoDeadline) {
    const std::uint64_t probe_ns = share_ns / 10 * 6;
    rule = CutTo(rule, probe_ns);
    rule.warmup_ns = std::min(rule.warmup_ns, probe_ns / 5);
  }
  probes::LoopOutcome loop = probes::SampleProbe(platform, dir, spec, rule, plan.op_options);
  Remeasure m;
  m.probe = probes::ToResult(spec, loop, plan.rule.target_ci);
  Rebase(m.probe, origin);
  SampleReference(platform, dir, "end", origin, scratch, file_size, share_ns);
  m.reference = std::move(scratch.reference);
  m.findings = std::move(scratch.findings);
  return m;
}

// target as the rule sees it judged on m alone: m's probe in place of the run's, m's reference
// samples in place of the run's.
model::Target JudgedOn(const model::Target& target, const Remeasure& m) {
  model::Target t = target;
  auto same = [&](const probes::ProbeResult& r) { return r.spec == m.probe.spec; };
  std::erase_if(t.probes, same);
  t.probes.push_back(m.probe);
  t.reference = m.reference;
  t.moved.clear();
  return t;
}

std::string Levels(const Remeasure& m) {
  if (m.reference.size() < 2) return "the reference probe could not be sampled around it";
  return fmt::format("the reference probe {} before, {} after",
                     text::FormatNanos(analysis::ReferenceLevel(m.reference.front())),
                     text::FormatNanos(analysis::ReferenceLevel(m.reference.back())));
}

void AddFindings(model::Target& target, const std::vector<model::Finding>& findings) {
  for (const model::Finding& f : findings) {
    bool said = std::any_of(target.findings.begin(), target.findings.end(), [&](const auto& x) {
      return x.code == f.code && x.subject == f.subject;
    });
    if (!said) target.findings.push_back(f);
  }
}

model::Target* TargetOf(model::Report& report, const std::string& path) {
  for (model::Target& t : report.targets) {
    if (t.path == path) return &t;
  }
  return nullptr;
}

}  // namespace

std::string Unsteady(const Remeasure& m) {
  if (m.reference.size() < 2) return "the reference probe could not be sampled around it";
  double before = analysis::ReferenceLevel(m.reference.front());
  double after = analysis::ReferenceLevel(m.reference.back());
  if (analysis::Drifted(before, after)) {
    return fmt::format("the reference probe {} before it, {} after", text::FormatNanos(before),
                       text::FormatNanos(after));
  }
  model::Target t;
  t.probes = {m.probe};
  for (const analysis::DriftSeries& s : analysis::DriftedSeries(t)) {
    if (s.of != analysis::DriftSeries::Of::kProbe || s.steps.empty()) continue;
    const analysis::Step& step = s.steps.front();
    return fmt::format(
        "the reference probe {} before it, {} after, but the probe's own latency stepped from "
        "{} to {} within it",
        text::FormatNanos(before), text::FormatNanos(after), text::FormatNanos(step.before),
        text::FormatNanos(step.after));
  }
  return "";
}

bool SteadyWithin(const Remeasure& m) { return Unsteady(m).empty(); }

std::vector<model::CheckResult> RemeasureUnstable(platform::Platform& platform,
                                                  const gate::Policy& policy,
                                                  const RemeasurePlan& plan,
                                                  model::Report& report) {
  std::vector<Group> groups = GroupsOf(policy, report);
  std::vector<model::CheckResult> out;
  std::map<std::string, std::unique_ptr<platform::ScratchDir>> scratch;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const Group& group = groups[g];
    model::Target* target = TargetOf(report, group.path);
    std::uint32_t tried = 0;
    std::optional<Remeasure> last;
    std::string why;  // why no further re-measure was tried
    std::unique_ptr<platform::ScratchDir>& dir = scratch[group.path];
    while (tried < kMaxRemeasures) {
      if (platform::InterruptSignal() != 0) {
        why = "interrupted";
        break;
      }
      std::uint64_t share = kNoDeadline;
      if (plan.deadline_ns != 0) {
        const std::uint64_t now = platform.NowNanos();
        const std::uint64_t left = plan.deadline_ns > now ? plan.deadline_ns - now : 0;
        // Every re-measure still possible gets an even share of what is left, less a tenth
        // kept for what a re-measure costs beside its timed parts (its file's setup).
        const std::uint64_t possible =
            (groups.size() - g - 1) * kMaxRemeasures + (kMaxRemeasures - tried);
        share = (left - left / 10) / possible;
        if (share < kMinRemeasureNs) {
          why = fmt::format("the budget was spent ({} left, a re-measure needs {})",
                            text::FormatNanos(static_cast<double>(left)),
                            text::FormatNanos(static_cast<double>(kMinRemeasureNs)));
          break;
        }
      }
      if (!dir) {
        Result<std::unique_ptr<platform::ScratchDir>> made =
            platform::ScratchDir::Create(platform, group.path);
        if (!made.ok()) {
          why = "no scratch directory: " + made.status().message();
          break;
        }
        dir = std::move(*made);
      }
      last = MeasureOnce(platform, dir->work_path(), group.spec, plan, share);
      ++tried;
      if (target != nullptr) AddFindings(*target, last->findings);
      if (SteadyWithin(*last)) break;
    }
    const bool decided = last && SteadyWithin(*last) && target != nullptr;
    for (const auto& [index, alone] : group.rules) {
      model::CheckResult c = report.checks[index];
      if (decided) {
        model::Report judged;
        judged.targets = {JudgedOn(*target, *last)};
        c = gate::EvaluatePolicy(alone, judged).at(0);
        c.message = fmt::format(
            "{} (re-measured: the run's own figure {}; re-measure {} of at most {} held steady, "
            "{})",
            c.message,
            report.checks[index].undecided ? "could not decide the rule"
                                           : "was unstable, the device moving during the run",
            tried, kMaxRemeasures, Levels(*last));
      } else if (tried > 0) {
        c.message = fmt::format(
            "{}; re-measured {} time(s), none with the device steady (the last one: {}){}",
            c.message, tried, Unsteady(*last), why.empty() ? "" : "; then " + why);
      } else {
        c.message = fmt::format("{}; not re-measured: {}", c.message, why);
      }
      c.remeasured = tried;
      out.push_back(std::move(c));
    }
  }
  for (auto& [path, dir] : scratch) {
    if (dir) (void)dir->Remove();  // what a re-measure leaves is check's own scratch
  }
  return out;
}

void JudgeCheck(platform::Platform& platform, const gate::Policy& policy, const RemeasurePlan& plan,
                BackgroundLoads& loads, model::Report& report) {
  report.checks = gate::EvaluatePolicy(policy, report);
  std::vector<model::CheckResult> again;
  if (!report.context.interrupted) again = RemeasureUnstable(platform, policy, plan, report);
  loads.StopInto(report);
  report.checks = gate::EvaluatePolicy(policy, report);
  for (model::CheckResult& c : report.checks) {
    for (model::CheckResult& a : again) {
      if (a.path == c.path && a.rule == c.rule) c = a;
    }
  }
}

}  // namespace durprobe::run
