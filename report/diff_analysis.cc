#include "report/diff_analysis.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "report/units.h"

namespace durprobe::report {
namespace {

using nlohmann::json;

double Num(const json& j, const char* key, double fallback = 0.0) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : fallback;
}

std::string Text(const json& j) {
  if (j.is_string()) return j.get<std::string>();
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// Flattens objects into "prefix.key" -> text; arrays and scalars are leaves.
void Flatten(const json& j, const std::string& prefix, std::map<std::string, std::string>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      Flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    }
    return;
  }
  out[prefix] = Text(j);
}

std::string ConfigKey(const json& c) {
  return fmt::format("{}/{}/{}", c.value("journal_mode", ""), c.value("synchronous", ""),
                     c.value("rows_per_commit", 1));
}

std::vector<Difference> Differences(const json& a, const json& b) {
  std::map<std::string, std::string> fa, fb;
  const json& ta = a["targets"][0];
  const json& tb = b["targets"][0];
  Flatten(a.value("context", json::object()), "context", fa);
  Flatten(b.value("context", json::object()), "context", fb);
  Flatten(ta.value("mount", json::object()), "mount", fa);
  Flatten(tb.value("mount", json::object()), "mount", fb);
  for (const char* noise :
       {"context.host", "context.started_at", "context.command", "context.build_warnings"}) {
    fa.erase(noise);
    fb.erase(noise);
  }
  // Device numbers are local names for a device, not a property of it.
  auto local_id = [](const std::string& key) {
    return key.size() >= 4 && key.compare(key.size() - 4, 4, ".dev") == 0;
  };
  std::erase_if(fa, [&](const auto& kv) { return local_id(kv.first); });
  std::erase_if(fb, [&](const auto& kv) { return local_id(kv.first); });
  // null and absent mean the same: nothing known.
  std::erase_if(fa, [](const auto& kv) { return kv.second == "null"; });
  std::erase_if(fb, [](const auto& kv) { return kv.second == "null"; });
  std::vector<Difference> out;
  for (const auto& [key, va] : fa) {
    auto it = fb.find(key);
    if (it != fb.end() && it->second != va) out.push_back({key, va, it->second});
  }
  // A whole block present on one side only (a device behind one path, none behind the other)
  // is one difference, named by its shortest missing prefix.
  auto one_sided = [&out](const std::map<std::string, std::string>& here,
                          const std::map<std::string, std::string>& there, bool here_is_a) {
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

std::string Advice(const std::string& factor) {
  if (factor == "sync_latency") {
    return "each sync takes longer on one host: look at the device, its write cache and FUA, "
           "the filesystem and mount options, or a throttled virtual disk (durprobe probe shows "
           "the raw fdatasync latency on both)";
  }
  if (factor == "sync_count") {
    return "SQLite issues a different number of syncs per commit: compare the SQLite versions, "
           "compile options (SQLITE_DEFAULT_SYNCHRONOUS, SQLITE_DEFAULT_WAL_SYNCHRONOUS) and the "
           "journal_mode / synchronous actually in effect";
  }
  if (factor == "non_sync") {
    return "the time outside syncs differs: CPU speed, per-operation overhead of the filesystem "
           "layer (FUSE, virtiofs, 9p, overlay), or locking; `durprobe compare` on both paths "
           "shows the per-operation costs";
  }
  return "the reports share no SQLite configuration to attribute: rerun both with the same "
         "--journal-modes and --synchronous, and read the differences listed";
}

}  // namespace

Result<json> ParseJsonText(const std::string& text) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    if (e.byte >= text.size()) {
      return Status::InvalidArgument("not valid JSON: it ends early (truncated?)");
    }
    return Status::InvalidArgument(fmt::format("not valid JSON: syntax error at byte {}", e.byte));
  }
}

Status ValidateReport(const json& doc) {
  if (!doc.is_object()) return Status::InvalidArgument("not a JSON object");
  if (!doc.contains("schema") || !doc["schema"].is_string()) {
    return Status::InvalidArgument("no \"schema\" key: not a durprobe report");
  }
  std::string schema = doc["schema"];
  if (schema != "durprobe.report/1") {
    return Status::InvalidArgument(
        fmt::format("schema is '{}', expected durprobe.report/1", schema));
  }
  if (!doc.contains("targets") || !doc["targets"].is_array() || doc["targets"].empty() ||
      !doc["targets"][0].is_object()) {
    return Status::InvalidArgument("the report has no targets");
  }
  return Status::Ok();
}

ConfigDiff DiffConfig(const json& a, const json& b) {
  ConfigDiff d;
  d.journal_mode = a.value("journal_mode", "");
  d.synchronous = a.value("synchronous", "");
  d.rows_per_commit = a.value("rows_per_commit", 1);
  d.commits_per_sec_a = Num(a, "commits_per_sec");
  d.commits_per_sec_b = Num(b, "commits_per_sec");
  auto side = [](const json& c, double* commit, double* syncs, double* per_sync, double* rest) {
    double cps = Num(c, "commits_per_sec");
    *commit = cps > 0 ? 1e9 / cps : 0.0;
    *syncs = c.contains("syncs_per_commit") ? Num(c["syncs_per_commit"], "total") : 0.0;
    double sync_time = *commit * Num(c, "sync_time_share");
    *per_sync = *syncs > 0 ? sync_time / *syncs : 0.0;
    *rest = *commit - sync_time;
  };
  side(a, &d.commit_ns_a, &d.syncs_a, &d.sync_ns_a, &d.non_sync_ns_a);
  side(b, &d.commit_ns_b, &d.syncs_b, &d.sync_ns_b, &d.non_sync_ns_b);
  double gap = d.commit_ns_b - d.commit_ns_a;
  if (gap == 0.0) return d;
  double latency_effect = (d.sync_ns_b - d.sync_ns_a) * (d.syncs_a + d.syncs_b) / 2.0;
  double count_effect = (d.syncs_b - d.syncs_a) * (d.sync_ns_a + d.sync_ns_b) / 2.0;
  double rest_effect = d.non_sync_ns_b - d.non_sync_ns_a;
  d.share_sync_latency = latency_effect / gap;
  d.share_sync_count = count_effect / gap;
  d.share_non_sync = rest_effect / gap;
  return d;
}

Diff DiffReports(const json& a, const json& b, const std::string& a_name,
                 const std::string& b_name) {
  Diff diff;
  diff.a_name = a_name;
  diff.b_name = b_name;
  std::map<std::string, json> in_b;
  for (const json& c : b["targets"][0].value("sqlite", json::array())) in_b[ConfigKey(c)] = c;
  for (const json& c : a["targets"][0].value("sqlite", json::array())) {
    auto it = in_b.find(ConfigKey(c));
    if (it != in_b.end() && Num(c, "commits_per_sec") > 0 &&
        Num(it->second, "commits_per_sec") > 0) {
      diff.configs.push_back(DiffConfig(c, it->second));
    }
  }
  diff.differences = Differences(a, b);

  // Each configuration's shares weigh by how far apart its commit times are (log of the ratio),
  // so a 300x gap in DELETE/FULL outweighs a 1.4x gap in WAL/OFF.
  double shares[3] = {0, 0, 0};
  int counted = 0;
  const ConfigDiff* headline = nullptr;
  for (const ConfigDiff& c : diff.configs) {
    double rel = std::fabs(c.commit_ns_b - c.commit_ns_a) / c.commit_ns_a;
    if (rel < kMeaningfulGap) continue;
    double weight = std::fabs(std::log(c.commit_ns_b / c.commit_ns_a));
    shares[0] += weight * std::fabs(c.share_sync_latency);
    shares[1] += weight * std::fabs(c.share_sync_count);
    shares[2] += weight * std::fabs(c.share_non_sync);
    ++counted;
    if (headline == nullptr ||
        rel > std::fabs(headline->commit_ns_b - headline->commit_ns_a) / headline->commit_ns_a) {
      headline = &c;
    }
  }
  if (diff.configs.empty()) {
    diff.verdict = {"configuration", fmt::format("no SQLite configuration in common; {} "
                                                 "configuration difference(s) listed; {}",
                                                 diff.differences.size(), Advice("configuration"))};
    return diff;
  }
  if (counted == 0) {
    diff.verdict = {"configuration",
                    fmt::format("commit times agree within {:.0f}% in every configuration both "
                                "reports measured; nothing to attribute",
                                kMeaningfulGap * 100)};
    return diff;
  }
  const char* names[3] = {"sync_latency", "sync_count", "non_sync"};
  int best = 0;
  for (int i = 1; i < 3; ++i) {
    if (shares[i] > shares[best]) best = i;
  }
  const ConfigDiff& h = *headline;
  const std::string an = "a", bn = "b";  // the console and JSON name the files once, up front
  double share = best == 0   ? h.share_sync_latency
                 : best == 1 ? h.share_sync_count
                             : h.share_non_sync;
  std::string detail;
  if (best == 0) {
    detail = fmt::format("a sync takes {} in {} and {} in {}", FormatNanos(h.sync_ns_a), an,
                         FormatNanos(h.sync_ns_b), bn);
  } else if (best == 1) {
    detail = fmt::format("{:.2f} syncs per commit in {} against {:.2f} in {}", h.syncs_a, an,
                         h.syncs_b, bn);
  } else {
    detail = fmt::format("{} outside syncs per commit in {} against {} in {}",
                         FormatNanos(h.non_sync_ns_a), an, FormatNanos(h.non_sync_ns_b), bn);
  }
  diff.verdict = {names[best],
                  fmt::format("{} {} (rows/commit {}): {} commits/s in {} vs {} in {}; {:.0f}% of "
                              "the gap is {} ({}); {}",
                              h.journal_mode, h.synchronous, h.rows_per_commit,
                              FormatRate(h.commits_per_sec_a), an, FormatRate(h.commits_per_sec_b),
                              bn, share * 100, names[best], detail, Advice(names[best]))};
  return diff;
}

json ToJson(const Diff& d) {
  json configs = json::array();
  for (const ConfigDiff& c : d.configs) {
    configs.push_back({{"journal_mode", c.journal_mode},
                       {"synchronous", c.synchronous},
                       {"rows_per_commit", c.rows_per_commit},
                       {"commits_per_sec_a", c.commits_per_sec_a},
                       {"commits_per_sec_b", c.commits_per_sec_b},
                       {"commit_ns_a", c.commit_ns_a},
                       {"commit_ns_b", c.commit_ns_b},
                       {"syncs_per_commit_a", c.syncs_a},
                       {"syncs_per_commit_b", c.syncs_b},
                       {"sync_ns_a", c.sync_ns_a},
                       {"sync_ns_b", c.sync_ns_b},
                       {"non_sync_ns_a", c.non_sync_ns_a},
                       {"non_sync_ns_b", c.non_sync_ns_b},
                       {"shares",
                        {{"sync_latency", c.share_sync_latency},
                         {"sync_count", c.share_sync_count},
                         {"non_sync", c.share_non_sync}}}});
  }
  json differences = json::array();
  for (const Difference& x : d.differences) {
    differences.push_back({{"key", x.key}, {"a", x.a}, {"b", x.b}});
  }
  return {{"schema", kDiffSchema},
          {"a", d.a_name},
          {"b", d.b_name},
          {"configs", configs},
          {"differences", differences},
          {"verdict", {{"factor", d.verdict.factor}, {"message", d.verdict.message}}}};
}

}  // namespace durprobe::report
