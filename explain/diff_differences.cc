#include "explain/diff_differences.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "codec/mount_json.h"
#include "codec/report_json.h"
#include "model/labels.h"
#include "text/units.h"

namespace durprobe::explain {
namespace {

using nlohmann::json;
using Flat = std::map<std::string, std::string>;

std::string Text(const json& j) {
  if (j.is_string()) return j.get<std::string>();
  return j.dump();
}

// Flattens objects into "prefix.key" -> text; arrays and scalars are leaves.
void Flatten(const json& j, const std::string& prefix, Flat& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      Flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    }
    return;
  }
  out[prefix] = Text(j);
}

// What says nothing about the measurement: names local to a host or a run, and values not known.
void DropNoise(Flat& flat) {
  for (const char* noise :
       {"context.host", "context.started_at", "context.build_warnings", "context.command_line"}) {
    flat.erase(noise);
  }
  // Device numbers are local names for a device, not a property of it.
  std::erase_if(flat, [](const auto& kv) {
    const std::string& key = kv.first;
    return key.size() >= 4 && key.compare(key.size() - 4, 4, ".dev") == 0;
  });
  // null, empty and absent mean the same: nothing known (an older report lacks the key).
  std::erase_if(flat, [](const auto& kv) {
    return kv.second == "null" || kv.second.empty() || kv.second == "[]";
  });
}

std::vector<Difference> Compare(const Flat& fa, const Flat& fb) {
  std::vector<Difference> out;
  for (const auto& [key, va] : fa) {
    auto it = fb.find(key);
    if (it != fb.end() && it->second != va) out.push_back({key, va, it->second});
  }
  // A whole block present on one side only (a device behind one path, none behind the other)
  // is one difference, named by its shortest missing prefix.
  auto one_sided = [&out](const Flat& here, const Flat& there, bool here_is_a) {
    std::vector<std::string> reported;
    for (const auto& entry : here) {
      const std::string& key = entry.first;
      if (there.count(key) != 0) continue;
      std::string prefix;
      for (std::size_t dot = key.find('.');; dot = key.find('.', dot + 1)) {
        prefix = key.substr(0, dot == std::string::npos ? key.size() : dot);
        auto below = there.lower_bound(prefix);
        bool present = below != there.end() &&
                       (below->first == prefix || below->first.rfind(prefix + ".", 0) == 0);
        if (!present || dot == std::string::npos) break;
      }
      if (std::find(reported.begin(), reported.end(), prefix) != reported.end()) continue;
      reported.push_back(prefix);
      std::string value = prefix == key ? entry.second : "(present)";
      out.push_back(here_is_a ? Difference{prefix, value, "(absent)"}
                              : Difference{prefix, "(absent)", value});
    }
  };
  one_sided(fa, fb, true);
  one_sided(fb, fa, false);
  return out;
}

}  // namespace

// Compared as the JSON report writes them, so a difference is named by its key in the report
// ("context.options.quick", "mount.device.write_cache"), and keys the writer gains are compared
// without a change here.
std::vector<Difference> ContextDifferences(const model::Context& a, const model::Context& b) {
  Flat fa, fb;
  Flatten(codec::ToJson(a), "context", fa);
  Flatten(codec::ToJson(b), "context", fb);
  DropNoise(fa);
  DropNoise(fb);
  return Compare(fa, fb);
}

std::vector<Difference> MountDifferences(const model::Target& a, const model::Target& b,
                                         const std::string& prefix) {
  Flat fa, fb;
  if (a.mount) Flatten(codec::ToJson(*a.mount), prefix, fa);
  if (b.mount) Flatten(codec::ToJson(*b.mount), prefix, fb);
  DropNoise(fa);
  DropNoise(fb);
  return Compare(fa, fb);
}

std::vector<std::string> DiffWarnings(const model::Context& a, const model::Context& b) {
  std::vector<std::string> warnings;
  std::optional<bool> qa = QuickRun(a), qb = QuickRun(b);
  if (qa && qb && *qa != *qb) {
    warnings.push_back(fmt::format(
        "{} is a quick run and {} a full one: a quick run times fewer operations per probe and "
        "per SQLite configuration, so its figures are noisier and a device that slows down "
        "after a burst may not have slowed yet; compare reports made the same way",
        *qa ? "a" : "b", *qa ? "b" : "a"));
  }
  return warnings;
}

namespace {

std::string StatesOf(const model::Target& t) {
  if (!t.device_states) return "held one level";
  return fmt::format("alternated between ~{} and ~{} (slow {:.0f}% of the time)",
                     text::FormatNanos(t.device_states->fast_ns),
                     text::FormatNanos(t.device_states->slow_ns),
                     t.device_states->slow_share * 100.0);
}

const model::StateFigures* StateOfSpec(const model::Target& t, const probes::ProbeSpec& spec,
                                       model::DeviceState s) {
  for (const model::ProbeStates& ps : t.probe_states) {
    if (ps.probe >= t.probes.size() || !(t.probes[ps.probe].spec == spec)) continue;
    for (const model::StateFigures& f : ps.states) {
      if (f.state == s) return &f;
    }
  }
  return nullptr;
}

}  // namespace

std::string StateWarning(const model::Target& a, const model::Target& b) {
  if (!a.device_states && !b.device_states) return "";
  std::string text = fmt::format(
      "the device of {} (a) {} and that of {} (b) {} (device_states), so a row's figures may be "
      "of different states on the two sides",
      a.path, StatesOf(a), b.path, StatesOf(b));
  int quoted = 0;
  for (const probes::ProbeResult& p : a.probes) {
    if (quoted == 3) break;
    for (model::DeviceState s : {model::DeviceState::kSlow, model::DeviceState::kFast}) {
      const model::StateFigures* fa = StateOfSpec(a, p.spec, s);
      const model::StateFigures* fb = StateOfSpec(b, p.spec, s);
      if (fa == nullptr || fb == nullptr) continue;
      text +=
          fmt::format("{} {} in the {} state: p50 {} (a) against {} (b)", quoted == 0 ? ";" : ",",
                      model::ProbeLabel(p.spec), NameOf(s), text::FormatNanos(double(fa->p50_ns)),
                      text::FormatNanos(double(fb->p50_ns)));
      ++quoted;
      break;
    }
  }
  if (quoted == 0) {
    text +=
        "; no probe was measured in the same state on both sides: compare each side's "
        "probes[].states, or rerun both in the same state";
  }
  return text;
}

}  // namespace durprobe::explain
