#include "gate/concurrency_rule.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "text/units.h"

namespace durprobe::gate {
namespace {

std::string SpecLabel(const probes::ConcurrencySpec& s) {
  return fmt::format("{} writers ({}, {} {})", s.writers, probes::NameOf(s.mode),
                     probes::NameOf(s.primitive), text::FormatBytes(s.write_size));
}

std::string DefaultName(const ConcurrencyRule& rule) {
  return fmt::format("{}_{}_{}_{}_{}",
                     rule.measure == ConcurrencyRule::Measure::kScaling ? "min_scaling" : "min_ops",
                     rule.spec.writers, probes::NameOf(rule.spec.mode),
                     probes::NameOf(rule.spec.primitive), rule.spec.write_size);
}

}  // namespace

Status ReadConcurrencyRule(const DocumentReader& r, const PolicyValue& v, const std::string& key,
                           Policy& p) {
  probes::ProbeSpec probe;
  std::map<std::string, const PolicyValue*> f;
  Status s = r.ProbeRule(v, key, {"name", "writers", "mode", "min_scaling", "min_ops"}, &probe, &f);
  if (!s.ok()) return s;
  if (probe.pattern != probes::Pattern::kOverwrite) {
    return r.Error(v, key, "concurrent writers overwrite their files: pattern must be overwrite");
  }
  ConcurrencyRule base;
  base.spec.primitive = probe.primitive;
  base.spec.write_size = probe.write_size;
  if (f.count("writers")) {
    Result<std::uint64_t> n =
        r.WholeNumber(*f["writers"], key + ".writers", 1, probes::kMaxWriters,
                      fmt::format("must be a whole number in 1..{}", probes::kMaxWriters));
    if (!n.ok()) return n.status();
    base.spec.writers = static_cast<std::uint32_t>(*n);
  }
  if (f.count("mode")) {
    Result<std::string> m = r.Text(*f["mode"], key + ".mode");
    if (!m.ok()) return m.status();
    Result<probes::WriterMode> mode = Lookup(probes::WriterModeNames(), *m, "writer mode");
    if (!mode.ok()) return r.Error(*f["mode"], key + ".mode", mode.status().message());
    base.spec.mode = *mode;
  }
  if (Status valid = probes::Validate(base.spec); !valid.ok()) {
    return r.Error(v, key, valid.message());
  }
  if (!f.count("min_scaling") && !f.count("min_ops")) {
    return r.Error(v, key, "needs min_scaling (x one writer) or min_ops (synced ops/s)");
  }
  for (const char* which : {"min_scaling", "min_ops"}) {
    if (!f.count(which)) continue;
    Result<double> n = r.Number(*f[which], key + "." + which);
    if (!n.ok()) return n.status();
    Result<double> floor = RateLimit(*n, which);
    if (!floor.ok()) return r.Error(*f[which], key + "." + which, floor.status().message());
    ConcurrencyRule rule = base;
    rule.measure = std::string(which) == "min_scaling" ? ConcurrencyRule::Measure::kScaling
                                                       : ConcurrencyRule::Measure::kAggregate;
    rule.min = *floor;
    rule.name = DefaultName(rule);
    if (f.count("name")) {
      if (Status named = r.NameInto(f, key, &rule.name); !named.ok()) return named;
      if (f.count("min_scaling") && f.count("min_ops")) rule.name += std::string("_") + which;
    }
    p.concurrency.push_back(rule);
  }
  return Status::Ok();
}

Result<ConcurrencyNeeds> NeedsOf(const std::vector<ConcurrencyRule>& rules) {
  ConcurrencyNeeds needs;
  for (const ConcurrencyRule& r : rules) {
    if (needs.writers.empty()) {
      needs.writers.push_back(1);
      needs.primitive = r.spec.primitive;
      needs.write_size = r.spec.write_size;
    } else if (r.spec.primitive != needs.primitive || r.spec.write_size != needs.write_size) {
      return Status::InvalidArgument(fmt::format(
          "concurrency rules '{}' and '{}' use different primitives or sizes: one check runs "
          "its concurrent writers with one primitive and size",
          rules.front().name, r.name));
    }
    needs.writers.push_back(r.spec.writers);
    if (std::find(needs.modes.begin(), needs.modes.end(), r.spec.mode) == needs.modes.end()) {
      needs.modes.push_back(r.spec.mode);
    }
  }
  std::sort(needs.writers.begin(), needs.writers.end());
  needs.writers.erase(std::unique(needs.writers.begin(), needs.writers.end()), needs.writers.end());
  return needs;
}

model::CheckResult EvaluateConcurrency(const ConcurrencyRule& rule, const model::Target& t) {
  const bool scaling = rule.measure == ConcurrencyRule::Measure::kScaling;
  model::CheckResult c;
  c.rule = rule.name;
  c.path = t.path;
  c.threshold = rule.min;
  c.comparison = model::CheckComparison::kAtLeast;
  c.unit = scaling ? model::CheckUnit::kTimes : model::CheckUnit::kOpsPerSec;
  const probes::ConcurrencyResult* row = nullptr;
  for (const probes::ConcurrencyResult& r : t.concurrency) {
    if (r.spec == rule.spec) row = &r;
  }
  const std::string label = SpecLabel(rule.spec);
  if (row == nullptr) {
    c.outcome = model::CheckOutcome::kError;
    c.message = fmt::format(
        "{} was not measured on this path (the budget may have capped the "
        "writer counts: give a longer --budget)",
        label);
    return c;
  }
  if (row->outcome == probes::Outcome::kUnsupported) {
    c.outcome = model::CheckOutcome::kSkipped;
    c.message = fmt::format("{} is unsupported here: {}", label, row->reason);
    return c;
  }
  if (row->outcome != probes::Outcome::kOk || row->ops == 0 || (scaling && row->scaling <= 0)) {
    c.outcome = model::CheckOutcome::kError;
    c.message =
        fmt::format("{} could not be measured: {}", label,
                    row->reason.empty() ? "no one-writer row to scale against" : row->reason);
    return c;
  }
  double measured = scaling ? row->scaling : row->aggregate_ops_per_sec;
  c.measured = measured;
  c.samples = row->ops;
  c.outcome = measured >= rule.min ? model::CheckOutcome::kPass : model::CheckOutcome::kFail;
  c.message = fmt::format(
      "{}: {} synced ops/s together, {} one writer, median sync {} (needs {} {})", label,
      text::FormatRate(row->aggregate_ops_per_sec), text::FormatRatio(row->scaling),
      text::FormatNanos(static_cast<double>(row->latency.p50)),
      scaling ? "scaling >=" : "aggregate >=", model::FormatCheckValue(rule.min, c.unit));
  return c;
}

}  // namespace durprobe::gate
