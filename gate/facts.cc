#include "gate/facts.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <utility>

#include "analysis/fsync_error_meaning.h"
#include "analysis/mount_findings.h"
#include "text/units.h"

namespace durprobe::gate {
namespace {

model::CheckResult Start(const std::string& rule, const model::Target& t, model::CheckUnit unit) {
  model::CheckResult c;
  c.rule = rule;
  c.path = t.path;
  c.unit = unit;
  return c;
}

void Settle(model::CheckResult& c, bool pass, std::string message) {
  c.outcome = pass ? model::CheckOutcome::kPass : model::CheckOutcome::kFail;
  c.measured = pass ? 1.0 : 0.0;
  c.message = std::move(message);
}

bool IsOverlay(const platform::MountInfo& m) {
  return m.fstype == "overlay" || m.fstype == "fuse.fuse-overlayfs" || m.overlay.has_value() ||
         m.container.path_role == platform::PathRole::kOverlayRoot;
}

}  // namespace

std::string_view NameOf(Fact fact) {
  switch (fact) {
    case Fact::kWriteThroughOrFua:
      return "write_through_or_fua";
    case Fact::kNotNetworkFs:
      return "not_network_fs";
    case Fact::kNotOverlay:
      return "not_overlay";
    case Fact::kDurable:
      return "durable";
    case Fact::kFsyncErrorReported:
      return "fsync_error_reported";
  }
  return "unknown";
}

const std::map<std::string, Fact>& FactNames() {
  static const std::map<std::string, Fact> names = {
      {"write_through_or_fua", Fact::kWriteThroughOrFua},
      {"not_network_fs", Fact::kNotNetworkFs},
      {"not_overlay", Fact::kNotOverlay},
      {"durable", Fact::kDurable},
      {"fsync_error_reported", Fact::kFsyncErrorReported}};
  return names;
}

model::CheckResult EvaluateFact(Fact fact, const model::Target& t) {
  // A fact is 1 (holds) or 0; the threshold says it must hold.
  model::CheckResult c = Start(std::string(NameOf(fact)), t, model::CheckUnit::kNone);
  c.threshold = 1.0;
  c.comparison = model::CheckComparison::kEqual;
  if (!t.mount) {
    c.message = "the mount could not be identified, so the fact cannot be checked";
    return c;
  }
  const platform::MountInfo& m = *t.mount;
  switch (fact) {
    case Fact::kNotNetworkFs:
      Settle(c, !analysis::IsNetworkFs(m.fstype),
             fmt::format("{} is {}a network filesystem", m.fstype,
                         analysis::IsNetworkFs(m.fstype) ? "" : "not "));
      break;
    case Fact::kNotOverlay:
      Settle(c, !IsOverlay(m),
             IsOverlay(m) ? fmt::format("{} is an overlay (a container's writable layer); put the "
                                        "data on a volume",
                                        t.path)
                          : fmt::format("{} is not an overlay", m.fstype));
      break;
    case Fact::kDurable:  // EvaluateDurable
      return EvaluateDurable(t, {Fact::kDurable});
    case Fact::kFsyncErrorReported:
      return EvaluateFsyncErrorReported(t);
    case Fact::kWriteThroughOrFua: {
      if (!m.device) {
        c.message = fmt::format("no block device was identified behind {} ({})", m.fstype,
                                m.device_note.empty() ? "no reason given" : m.device_note);
        return c;
      }
      const platform::DeviceInfo& d = *m.device;
      bool through = d.write_cache == "write through";
      bool fua = d.fua.value_or(false);
      if (d.write_cache.empty() && !d.fua) {
        c.message = fmt::format("{} reports neither its write cache mode nor FUA support", d.name);
        return c;
      }
      Settle(c, through || fua,
             fmt::format("{}: write cache {}, FUA {}", d.name,
                         d.write_cache.empty() ? "unknown" : d.write_cache,
                         d.fua ? (*d.fua ? "yes" : "no") : "unknown"));
      break;
    }
  }
  return c;
}

std::vector<probes::ProbeSpec> DurableRuleSpecs() {
  using probes::Pattern;
  using probes::Primitive;
  return {{Primitive::kFdatasync, Pattern::kOverwrite, 4096},
          {Primitive::kNone, Pattern::kOverwrite, 4096}};
}

model::CheckResult EvaluateFsyncErrorReported(const model::Target& t) {
  model::CheckResult c = Start("fsync_error_reported", t, model::CheckUnit::kNone);
  c.threshold = 1.0;
  c.comparison = model::CheckComparison::kEqual;
  std::vector<std::string> silent;
  std::size_t judged = 0;
  for (const probes::FsyncErrorsResult& r : t.fsync_errors) {
    for (const probes::FsyncErrorOutcome& o : r.outcomes) {
      if (o.status != probes::Outcome::kOk || o.fault == probes::FaultKind::kMetadata) continue;
      ++judged;
      if (analysis::LostSilently(o)) {
        silent.push_back(fmt::format("{} {} on {}", probes::NameOf(o.fault), o.sync, r.fs));
      }
    }
  }
  if (judged == 0) {
    c.message =
        "no failed-write experiment ran on this path (durprobe faults: root, /dev/fuse "
        "and loop devices)";
    return c;
  }
  if (silent.empty()) {
    Settle(c, true,
           fmt::format("the first sync after a failed write reported it in {} experiments of {}",
                       judged, t.fsync_errors.front().fs));
  } else {
    Settle(c, false,
           fmt::format("a failed write went unreported by the sync after it: {}",
                       fmt::join(silent, ", ")));
  }
  return c;
}

model::CheckResult EvaluateDurable(const model::Target& t, const std::vector<Fact>& facts) {
  bool strict = std::find(facts.begin(), facts.end(), Fact::kDurable) != facts.end();
  model::CheckResult c = Start("durable", t, model::CheckUnit::kNone);
  c.threshold = 1.0;
  c.comparison = model::CheckComparison::kEqual;
  if (!t.durability) {
    c.message = "the path's durability was not assessed";
    return c;
  }
  const model::Durability& d = *t.durability;
  switch (d.verdict) {
    case model::DurabilityVerdict::kDurable:
      Settle(c, true, "durable: " + d.reason);
      break;
    case model::DurabilityVerdict::kNotDurable:
      Settle(c, false, "not durable: " + d.reason);
      break;
    case model::DurabilityVerdict::kUnproven:
      Settle(c, !strict,
             fmt::format("unproven: {}{}{}", d.reason,
                         d.to_prove.empty() ? "" : "; to prove it: " + d.to_prove,
                         strict ? " (the policy requires durable)" : ""));
      c.warning = !strict;
      break;
  }
  return c;
}

std::vector<model::CheckResult> EvaluateFindings(const Policy& policy, const model::Target& t) {
  std::vector<model::CheckResult> out;
  if (!policy.fail_on_codes.empty()) {
    model::CheckResult c = Start("fail_on_findings", t, model::CheckUnit::kFindings);
    c.comparison = model::CheckComparison::kAtMost;
    std::string hits;
    int n = 0;
    for (const model::Finding& f : t.findings) {
      if (std::find(policy.fail_on_codes.begin(), policy.fail_on_codes.end(), f.code) ==
          policy.fail_on_codes.end()) {
        continue;
      }
      ++n;
      hits += fmt::format("{}{}: {}", hits.empty() ? "" : "; ", f.code, f.message);
    }
    c.measured = n;
    c.outcome = n == 0 ? model::CheckOutcome::kPass : model::CheckOutcome::kFail;
    c.message = n == 0 ? fmt::format("none of the {} findings that fail the check",
                                     policy.fail_on_codes.size())
                       : hits;
    out.push_back(std::move(c));
  }
  if (policy.fail_on_severity) {
    model::Severity floor = *policy.fail_on_severity;
    model::CheckResult c =
        Start(fmt::format("findings_{}", NameOf(floor)), t, model::CheckUnit::kFindings);
    c.comparison = model::CheckComparison::kAtMost;
    std::string codes;
    int n = 0;
    for (const model::Finding& f : t.findings) {
      if (f.severity < floor) continue;
      ++n;
      codes += (codes.empty() ? "" : ", ") + f.code;
    }
    c.measured = n;
    c.outcome = n == 0 ? model::CheckOutcome::kPass : model::CheckOutcome::kFail;
    c.message = n == 0 ? fmt::format("no finding at {} or above", NameOf(floor))
                       : fmt::format("{} finding(s) at {} or above: {}", n, NameOf(floor), codes);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace durprobe::gate
