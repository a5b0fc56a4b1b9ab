#include "gate/policy.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <unordered_map>

#include "gate/concurrency_rule.h"
#include "gate/facts.h"
#include "gate/policy_document.h"
#include "gate/policy_reader.h"
#include "gate/presets.h"
#include "model/finding_codes.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::gate {
namespace {

Status ReadLatency(const DocumentReader& r, const PolicyValue& v, const std::string& key,
                   Policy& p) {
  probes::ProbeSpec spec;
  std::map<std::string, const PolicyValue*> f;
  Status s = r.ProbeRule(v, key, {"name", "p50", "p99", "severe"}, &spec, &f);
  if (!s.ok()) return s;
  if (!f.count("p50") && !f.count("p99"))
    return r.Error(v, key, "needs p50 or p99 (a latency limit)");
  std::uint64_t limits[2] = {0, 0};
  for (int i = 0; i < 2; ++i) {
    const char* stat = i == 0 ? "p50" : "p99";
    if (!f.count(stat)) continue;
    Result<std::uint64_t> ns = r.Duration(*f[stat], key + "." + stat);
    if (!ns.ok()) return ns.status();
    limits[i] = *ns;
    LatencyRule rule;
    rule.spec = spec;
    rule.stat = i == 0 ? LatencyStat::kP50 : LatencyStat::kP99;
    rule.max_ns = *ns;
    rule.name = RuleName(i == 0 ? "max_p50" : "max_p99", spec);
    if (f.count("name")) {
      if (Status named = r.NameInto(f, key, &rule.name); !named.ok()) return named;
      if (f.count("p50") && f.count("p99")) rule.name += std::string("_") + stat;
    }
    if (f.count("severe") && i == 1) {
      Result<std::uint64_t> severe = r.Duration(*f["severe"], key + ".severe");
      if (!severe.ok()) return severe.status();
      if (*severe <= *ns) return r.Error(*f["severe"], key + ".severe", "must be above p99");
      rule.severe_ns = *severe;
      rule.severe_why = "the policy's severe limit";
    }
    p.latency.push_back(rule);
  }
  if (limits[0] != 0 && limits[1] != 0 && limits[0] > limits[1]) {
    return r.Error(*f["p50"], key + ".p50", "a p50 limit above the p99 limit can never bind");
  }
  return Status::Ok();
}

Status ReadRate(const DocumentReader& r, const PolicyValue& v, const std::string& key, Policy& p) {
  RateRule rule;
  std::map<std::string, const PolicyValue*> f;
  Status s = r.ProbeRule(v, key, {"name", "min"}, &rule.spec, &f);
  if (!s.ok()) return s;
  if (!f.count("min")) return r.Error(v, key, "needs min (synced writes per second)");
  Result<double> n = r.Number(*f["min"], key + ".min");
  if (!n.ok()) return n.status();
  Result<double> rate = RateLimit(*n, "min");
  if (!rate.ok()) return r.Error(*f["min"], key + ".min", rate.status().message());
  rule.min_ops_per_sec = *rate;
  rule.name = RuleName("min_rate", rule.spec);
  if (Status named = r.NameInto(f, key, &rule.name); !named.ok()) return named;
  p.rates.push_back(rule);
  return Status::Ok();
}

Status ReadSlow(const DocumentReader& r, const PolicyValue& v, const std::string& key, Policy& p) {
  SlowSyncRule rule;
  std::map<std::string, const PolicyValue*> f;
  Status s = r.ProbeRule(v, key, {"name", "over", "max_count"}, &rule.spec, &f);
  if (!s.ok()) return s;
  if (!f.count("over")) return r.Error(v, key, "needs over (a duration)");
  Result<std::uint64_t> over = r.Duration(*f["over"], key + ".over");
  if (!over.ok()) return over.status();
  rule.over_ns = *over;
  if (f.count("max_count")) {
    Result<std::uint64_t> n = r.WholeNumber(*f["max_count"], key + ".max_count", 0,
                                            std::numeric_limits<std::uint64_t>::max(),
                                            "must be a whole number, 0 or more");
    if (!n.ok()) return n.status();
    rule.max_count = *n;
  }
  rule.name = RuleName("slow_syncs", rule.spec);
  if (Status named = r.NameInto(f, key, &rule.name); !named.ok()) return named;
  p.slow_syncs.push_back(rule);
  return Status::Ok();
}

// The rule names a document has given so far, with their lines: a second rule of one name is an
// error where it stands (two would write one JUnit test case and Prometheus series twice).
class NameLedger {
 public:
  // Checks the rules added to p since the last call; v and key are where they came from.
  Status Note(const DocumentReader& r, const PolicyValue& v, const std::string& key,
              const Policy& p) {
    Status s = Status::Ok();
    auto note = [&](const auto& rules, std::size_t& from) {
      for (; from < rules.size() && s.ok(); ++from) {
        auto [it, added] = lines_.emplace(rules[from].name, v.line);
        if (added) continue;
        s = r.Error(v, key,
                    fmt::format("a second rule named '{}' (the first is on line {}): give each "
                                "rule its own name",
                                it->first, it->second));
      }
    };
    note(p.latency, latency_);
    note(p.rates, rates_);
    note(p.slow_syncs, slow_);
    note(p.commits, commits_);
    note(p.concurrency, concurrency_);
    return s;
  }

 private:
  std::unordered_map<std::string, int> lines_;
  std::size_t latency_ = 0, rates_ = 0, slow_ = 0, commits_ = 0, concurrency_ = 0;
};

// Runs read on each table of an array of tables (or on a single table).
template <typename Read>
Status EachTable(const DocumentReader& r, const PolicyValue& v, const std::string& key, Policy& p,
                 NameLedger& names, Read read) {
  if (v.kind == PolicyValue::Kind::kTable) {
    Status s = read(r, v, key, p);
    return s.ok() ? names.Note(r, v, key, p) : s;
  }
  if (v.kind != PolicyValue::Kind::kArray)
    return r.Error(v, key, "expected a table or a list of tables");
  for (std::size_t i = 0; i < v.items.size(); ++i) {
    std::string at = fmt::format("{}[{}]", key, i);
    Status s = read(r, v.items[i], at, p);
    if (s.ok()) s = names.Note(r, v.items[i], at, p);
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

Result<Policy> PolicyFromDocument(const PolicyValue& doc, const std::string& file) {
  DocumentReader r(file);
  NameLedger ledger;
  Policy p;
  p.source = file;
  for (const auto& [key, v] : doc.fields) {
    Status s;
    if (key == "preset") {
      Result<std::vector<std::string>> names = r.Strings(v, key);
      if (!names.ok()) return names.status();
      for (const std::string& n : *names) {
        Result<Policy> preset = Preset(n);
        if (!preset.ok()) return r.Error(v, key, preset.status().message());
        Merge(p, *preset);
        if (Status dup = ledger.Note(r, v, key, p); !dup.ok()) return dup;
      }
    } else if (key == "latency") {
      s = EachTable(r, v, key, p, ledger, ReadLatency);
    } else if (key == "rate") {
      s = EachTable(r, v, key, p, ledger, ReadRate);
    } else if (key == "slow_syncs") {
      s = EachTable(r, v, key, p, ledger, ReadSlow);
    } else if (key == "concurrency") {
      s = EachTable(r, v, key, p, ledger, ReadConcurrencyRule);
    } else if (key == "commits") {
      if (v.kind != PolicyValue::Kind::kTable)
        return r.Error(v, key, "expected a table of JOURNAL:SYNC = rate");
      for (const auto& [config, rate] : v.fields) {
        Result<std::string> t = r.Text(rate, key + "." + config);
        if (!t.ok()) return t.status();
        Result<CommitRule> rule = ParseCommitFlag(config + ">=" + *t);
        if (!rule.ok()) return r.Error(rate, key + "." + config, rule.status().message());
        p.commits.push_back(*rule);
        if (Status dup = ledger.Note(r, rate, key + "." + config, p); !dup.ok()) return dup;
      }
    } else if (key == "fail_on" || key == "require") {
      Result<std::vector<std::string>> items = r.Strings(v, key);
      if (!items.ok()) return items.status();
      s = key == "fail_on" ? ParseFailOn(*items, p) : ParseRequire(*items, p);
      if (!s.ok()) return r.Error(v, key, s.message());
    } else if (key == "wal_sync_method") {
      if (v.kind != PolicyValue::Kind::kBool) return r.Error(v, key, "expected true or false");
      p.recommend_wal_sync_method = v.flag;
    } else if (key == "file_size") {
      Result<std::string> t = r.Text(v, key);
      if (!t.ok()) return t.status();
      Result<std::uint64_t> bytes = text::ParseSize(*t);
      if (!bytes.ok()) return r.Error(v, key, bytes.status().message());
      p.probe_file_size = *bytes;
    } else {
      return r.Error(v, key,
                     "unknown key (valid: preset, latency, rate, slow_syncs, commits, "
                     "concurrency, fail_on, require, wal_sync_method, file_size)");
    }
    if (!s.ok()) return s;
  }
  if (p.empty()) return Status::InvalidArgument(fmt::format("{}:1: the policy has no rules", file));
  return p;
}

}  // namespace

Result<LatencyRule> ParseLatencyFlag(std::string_view text, LatencyStat stat) {
  LatencyRule rule;
  rule.stat = stat;
  rule.spec = {probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, 4096};
  std::string_view limit = text;
  if (std::size_t eq = text.find('='); eq != std::string_view::npos) {
    std::string_view spec = text.substr(0, eq);
    limit = text.substr(eq + 1);
    std::size_t c1 = spec.find(':');
    std::size_t c2 = c1 == std::string_view::npos ? c1 : spec.find(':', c1 + 1);
    if (c2 == std::string_view::npos) {
      return Status::InvalidArgument(fmt::format(
          "invalid latency rule '{}': expected LIMIT or PRIMITIVE:PATTERN:SIZE=LIMIT", text));
    }
    Result<probes::ProbeSpec> s =
        ProbeSpecOf(spec.substr(0, c1), spec.substr(c1 + 1, c2 - c1 - 1), spec.substr(c2 + 1));
    if (!s.ok())
      return Status::InvalidArgument("latency rule '" + std::string(text) +
                                     "': " + s.status().message());
    rule.spec = *s;
  }
  Result<std::uint64_t> ns = LatencyLimit(limit);
  if (!ns.ok()) return ns.status();
  rule.max_ns = *ns;
  rule.name = RuleName(stat == LatencyStat::kP99 ? "max_p99" : "max_p50", rule.spec);
  return rule;
}

Result<CommitRule> ParseCommitFlag(std::string_view text) {
  std::size_t colon = text.find(':');
  std::size_t op = text.find_first_of(">=");
  if (colon == std::string_view::npos || op == std::string_view::npos || op < colon) {
    return Status::InvalidArgument(fmt::format(
        "invalid commit rule '{}': expected JOURNAL:SYNC>=RATE, e.g. WAL:FULL>=500", text));
  }
  std::string_view number = text.substr(op + (text.substr(op, 2) == ">=" ? 2 : 1));
  CommitRule rule;
  Result<sqlite_bench::JournalMode> j =
      Lookup(sqlite_bench::JournalModeNames(), text.substr(0, colon), "journal mode");
  if (!j.ok()) return j.status();
  Result<sqlite_bench::Synchronous> s =
      Lookup(sqlite_bench::SynchronousNames(), text.substr(colon + 1, op - colon - 1),
             "synchronous level");
  if (!s.ok()) return s.status();
  char* end = nullptr;
  std::string num(number);
  double value = std::strtod(num.c_str(), &end);
  if (num.empty() || end != num.c_str() + num.size()) {
    return Status::InvalidArgument(fmt::format("invalid commit rate '{}' in '{}'", number, text));
  }
  Result<double> rate = RateLimit(value, "a commit floor");
  if (!rate.ok()) return rate.status();
  rule.journal = *j;
  rule.sync = *s;
  rule.min_commits_per_sec = *rate;
  rule.name = fmt::format("min_commits_{}_{}", sqlite_bench::NameOf(*j), sqlite_bench::NameOf(*s));
  return rule;
}

Status ParseFailOn(const std::vector<std::string>& items, Policy& policy) {
  for (const std::string& item : items) {
    std::string lower = text::AsciiLower(item);
    if (lower == "info" || lower == "warn" || lower == "fail") {
      model::Severity s = lower == "info"   ? model::Severity::kInfo
                          : lower == "warn" ? model::Severity::kWarn
                                            : model::Severity::kFail;
      if (!policy.fail_on_severity || s < *policy.fail_on_severity) policy.fail_on_severity = s;
      continue;
    }
    bool code = !lower.empty();
    for (char c : lower)
      code = code && (std::islower(static_cast<unsigned char>(c)) || c == '_' ||
                      std::isdigit(static_cast<unsigned char>(c)));
    if (!code || !model::IsFindingCode(lower)) {
      return Status::InvalidArgument(fmt::format(
          "unknown --fail-on item '{}': not a finding code (docs/findings.md lists them) nor "
          "info, warn, fail",
          item));
    }
    policy.fail_on_codes.push_back(lower);
  }
  return Status::Ok();
}

Status UniqueRuleNames(const Policy& policy) {
  std::unordered_map<std::string, int> seen;
  auto check = [&](const std::string& name) {
    if (++seen[name] != 2) return Status::Ok();
    return Status::InvalidArgument(
        fmt::format("two rules are named '{}' ({}): each rule's name must be unique, since it "
                    "names the rule's JUnit test case and Prometheus series",
                    name, policy.source));
  };
  Status s = Status::Ok();
  auto each = [&](const auto& rules) {
    for (const auto& rule : rules) s = s.ok() ? check(rule.name) : s;
  };
  each(policy.latency);
  each(policy.rates);
  each(policy.slow_syncs);
  each(policy.commits);
  each(policy.concurrency);
  for (Fact f : policy.facts) s = s.ok() ? check(std::string(NameOf(f))) : s;
  return s;
}

Status ParseRequire(const std::vector<std::string>& items, Policy& policy) {
  for (const std::string& item : items) {
    Result<Fact> f = Lookup(FactNames(), item, "required fact");
    if (!f.ok()) return f.status();
    policy.facts.push_back(*f);
  }
  return Status::Ok();
}

namespace {

// An error quotes the document's own bytes (a key, the character toml++ stopped at), which may be
// a newline or another control character: escaped, so the error stays one line (found by the
// policy fuzzer).
Status OneLine(const Status& s) {
  return Status::InvalidArgument(text::EscapeControlChars(s.message()));
}

}  // namespace

Result<Policy> ParsePolicy(std::string_view text, std::string_view format,
                           const std::string& file) {
  Result<PolicyValue> doc =
      format == "json" ? ParseJsonDocument(text, file) : ParseTomlDocument(text, file);
  if (!doc.ok()) return OneLine(doc.status());
  Result<Policy> policy = PolicyFromDocument(*doc, file);
  if (!policy.ok()) return OneLine(policy.status());
  return policy;
}

}  // namespace durprobe::gate
