#include "report/diff_analysis.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "report/json_reporter.h"
#include "report/mount_json.h"
#include "report/sqlite_correlation.h"
#include "report/units.h"

namespace durprobe::report {
namespace {

using nlohmann::json;

std::string Text(const json& j) {
  if (j.is_string()) return j.get<std::string>();
  return j.dump();
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

std::string ConfigKey(const SqliteEntry& e) {
  const sqlite_bench::CommitConfig& c = e.result.config;
  return fmt::format("{}/{}/{}", sqlite_bench::NameOf(c.journal), sqlite_bench::NameOf(c.sync),
                     c.rows_per_commit);
}

// Context and mount are compared as the JSON report writes them, so a difference is named by
// its key in the report ("mount.device.write_cache").
std::vector<Difference> Differences(const Report& a, const Report& b) {
  std::map<std::string, std::string> fa, fb;
  const Target& ta = a.targets.at(0);
  const Target& tb = b.targets.at(0);
  Flatten(ToJson(a.context), "context", fa);
  Flatten(ToJson(b.context), "context", fb);
  if (ta.mount) Flatten(ToJson(*ta.mount), "mount", fa);
  if (tb.mount) Flatten(ToJson(*tb.mount), "mount", fb);
  for (const char* noise : {"context.host", "context.started_at", "context.command",
                            "context.build_warnings", "context.command_line"}) {
    fa.erase(noise);
    fb.erase(noise);
  }
  // Device numbers are local names for a device, not a property of it.
  auto local_id = [](const std::string& key) {
    return key.size() >= 4 && key.compare(key.size() - 4, 4, ".dev") == 0;
  };
  std::erase_if(fa, [&](const auto& kv) { return local_id(kv.first); });
  std::erase_if(fb, [&](const auto& kv) { return local_id(kv.first); });
  // null, empty and absent mean the same: nothing known (an older report lacks the key).
  auto unknown = [](const auto& kv) {
    return kv.second == "null" || kv.second.empty() || kv.second == "[]";
  };
  std::erase_if(fa, unknown);
  std::erase_if(fb, unknown);
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

ConfigDiff DiffConfig(const SqliteEntry& a, const SqliteEntry& b) {
  ConfigDiff d;
  const sqlite_bench::CommitConfig& config = a.result.config;
  d.journal_mode = sqlite_bench::NameOf(config.journal);
  d.synchronous = sqlite_bench::NameOf(config.sync);
  d.rows_per_commit = config.rows_per_commit;
  d.commits_per_sec_a = a.result.commits_per_sec;
  d.commits_per_sec_b = b.result.commits_per_sec;
  auto side = [](const SqliteEntry& e, double* commit, double* syncs, double* per_sync,
                 double* rest) {
    double cps = e.result.commits_per_sec;
    *commit = cps > 0 ? 1e9 / cps : 0.0;
    *syncs = SyncsOf(e).total;
    double sync_time = *commit * SyncTimeShareOf(e);
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

Diff DiffReports(const Report& a, const Report& b, const std::string& a_name,
                 const std::string& b_name) {
  Diff diff;
  diff.a_name = a_name;
  diff.b_name = b_name;
  std::map<std::string, const SqliteEntry*> in_b;
  for (const SqliteEntry& e : b.targets.at(0).sqlite) in_b[ConfigKey(e)] = &e;
  for (const SqliteEntry& e : a.targets.at(0).sqlite) {
    auto it = in_b.find(ConfigKey(e));
    if (it != in_b.end() && e.result.commits_per_sec > 0 &&
        it->second->result.commits_per_sec > 0) {
      diff.configs.push_back(DiffConfig(e, *it->second));
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
