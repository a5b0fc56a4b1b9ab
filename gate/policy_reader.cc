#include "gate/policy_reader.h"

#include <algorithm>
#include <cmath>

namespace durprobe::gate {
namespace {

constexpr std::uint64_t kMaxLatencyNs = 3600ull * 1'000'000'000;  // an hour: surely a typo
constexpr double kMaxRate = 1e9;

}  // namespace

Result<std::uint64_t> LatencyLimit(std::string_view text) {
  Result<std::uint64_t> ns = text::ParseDurationNanos(text);
  if (!ns.ok()) return ns;
  if (*ns > kMaxLatencyNs) {
    return Status::InvalidArgument(fmt::format("latency limit '{}' is over an hour", text));
  }
  return ns;
}

Result<double> RateLimit(double value, std::string_view what) {
  if (!(value > 0) || value > kMaxRate || std::isnan(value)) {
    return Status::InvalidArgument(fmt::format(
        "{} must be above 0 and at most {:.0f} per second, not {}", what, kMaxRate, value));
  }
  return value;
}

Result<probes::ProbeSpec> ProbeSpecOf(std::string_view primitive, std::string_view pattern,
                                      std::string_view size) {
  Result<probes::Primitive> prim = Lookup(probes::PrimitiveNames(), primitive, "primitive");
  if (!prim.ok()) return prim.status();
  Result<probes::Pattern> pat = Lookup(probes::PatternNames(), pattern, "pattern");
  if (!pat.ok()) return pat.status();
  Result<std::uint64_t> bytes = text::ParseSize(size);
  if (!bytes.ok()) return bytes.status();
  probes::ProbeSpec spec{*prim, *pat, *prim == probes::Primitive::kDirFsync ? 0 : *bytes};
  Status valid = probes::Validate(spec);
  if (!valid.ok()) return valid;
  return spec;
}

std::string RuleName(std::string_view kind, const probes::ProbeSpec& s) {
  std::string name = fmt::format("{}_{}_{}_{}", kind, probes::NameOf(s.primitive),
                                 probes::NameOf(s.pattern), s.write_size);
  if (s.paced_per_sec > 0) name += fmt::format("_at_{}", s.paced_per_sec);
  if (s.work_us > 0) name += fmt::format("_work_{}us", s.work_us);
  if (s.work_round_trips > 0) name += fmt::format("_{}_trips", s.work_round_trips);
  return name;
}

Status DocumentReader::Error(const PolicyValue& v, const std::string& key,
                             const std::string& problem) const {
  return Status::InvalidArgument(fmt::format("{}:{}: key '{}': {}", file_, v.line, key, problem));
}

Result<std::string> DocumentReader::Text(const PolicyValue& v, const std::string& key) const {
  if (v.kind == PolicyValue::Kind::kString) return v.text;
  if (v.kind == PolicyValue::Kind::kNumber) {
    return v.number == std::floor(v.number) ? fmt::format("{:.0f}", v.number)
                                            : fmt::format("{}", v.number);
  }
  return Error(v, key, "expected a string or a number");
}

Status DocumentReader::NameInto(const std::map<std::string, const PolicyValue*>& fields,
                                const std::string& key, std::string* name) const {
  auto it = fields.find("name");
  if (it == fields.end()) return Status::Ok();
  // A name is text: `name = 5` is a slip (a count meant for another key), not a rule named "5".
  if (it->second->kind != PolicyValue::Kind::kString) {
    return Error(*it->second, key + ".name", "a rule's name is a string in quotes");
  }
  const std::string& text = it->second->text;
  if (text.empty()) return Error(*it->second, key + ".name", "a rule's name must not be empty");
  *name = text;
  return Status::Ok();
}

Result<double> DocumentReader::Number(const PolicyValue& v, const std::string& key) const {
  if (v.kind == PolicyValue::Kind::kNumber) return v.number;
  return Error(v, key, "expected a number");
}

Result<std::vector<std::string>> DocumentReader::Strings(const PolicyValue& v,
                                                         const std::string& key) const {
  if (v.kind == PolicyValue::Kind::kString) return std::vector<std::string>{v.text};
  if (v.kind != PolicyValue::Kind::kArray) return Error(v, key, "expected a list of strings");
  std::vector<std::string> out;
  for (const PolicyValue& item : v.items) {
    if (item.kind != PolicyValue::Kind::kString)
      return Error(item, key, "expected a list of strings");
    out.push_back(item.text);
  }
  return out;
}

Status DocumentReader::ProbeRule(const PolicyValue& table, const std::string& key,
                                 const std::vector<std::string>& allowed, probes::ProbeSpec* spec,
                                 std::map<std::string, const PolicyValue*>* fields) const {
  if (table.kind != PolicyValue::Kind::kTable) return Error(table, key, "expected a table");
  std::string primitive = "fdatasync", pattern = "overwrite", size = "4096";
  std::uint64_t work_ns = 0;
  std::uint64_t pace = 0, trips = 0;
  for (const auto& [name, value] : table.fields) {
    std::string k = key + "." + name;
    if (name == "round_trips") {  // the work as round trips to a second thread: 4
      Result<std::uint64_t> n =
          WholeNumber(value, k, 1, probes::kMaxWorkRoundTrips,
                      fmt::format("round trips are a whole 1 .. {}", probes::kMaxWorkRoundTrips));
      if (!n.ok()) return n.status();
      trips = *n;
    } else if (name == "pace") {  // operations a second, as the database syncs: 1000
      Result<std::uint64_t> n = WholeNumber(
          value, k, 1, probes::kMaxPacedPerSec,
          fmt::format("a pace is a whole 1 .. {} operations a second", probes::kMaxPacedPerSec));
      if (!n.ok()) return n.status();
      pace = *n;
    } else if (name == "work") {  // the work before each operation: "200us"
      Result<std::uint64_t> ns = Duration(value, k);
      if (!ns.ok()) return ns.status();
      if (*ns < 1000 || *ns > std::uint64_t{probes::kMaxWorkUs} * 1000)
        return Error(value, k, "the work before each operation is 1 us .. 1 s");
      work_ns = *ns;
    } else if (name == "primitive" || name == "pattern" || name == "size") {
      Result<std::string> t = Text(value, k);
      if (!t.ok()) return t.status();
      (name == "primitive" ? primitive : name == "pattern" ? pattern : size) = *t;
    } else if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) {
      (*fields)[name] = &value;
    } else {
      return Error(value, k, "unknown key");
    }
  }
  Result<probes::ProbeSpec> s = ProbeSpecOf(primitive, pattern, size);
  if (!s.ok()) return Error(table, key, s.status().message());
  *spec = *s;
  spec->work_us = static_cast<std::uint32_t>(work_ns / 1000);
  spec->paced_per_sec = static_cast<std::uint32_t>(pace);
  spec->work_round_trips = static_cast<std::uint32_t>(trips);
  if (Status valid = probes::Validate(*spec); !valid.ok()) {
    return Error(table, key, valid.message());
  }
  return Status::Ok();
}

Result<std::uint64_t> DocumentReader::WholeNumber(const PolicyValue& v, const std::string& key,
                                                  std::uint64_t lo, std::uint64_t hi,
                                                  const std::string& problem) const {
  Result<double> n = Number(v, key);
  if (!n.ok()) return n.status();
  // 2^64 itself rounds equal to the largest hi, and would not convert.
  if (!(*n >= static_cast<double>(lo) && *n <= static_cast<double>(hi)) || *n >= 0x1p64 ||
      *n != std::floor(*n)) {
    return Error(v, key, problem);
  }
  return static_cast<std::uint64_t>(*n);
}

Result<std::uint64_t> DocumentReader::Duration(const PolicyValue& v, const std::string& key) const {
  Result<std::string> t = Text(v, key);
  if (!t.ok()) return t.status();
  Result<std::uint64_t> ns = LatencyLimit(*t);
  if (!ns.ok()) return Error(v, key, ns.status().message());
  return ns;
}

}  // namespace durprobe::gate
