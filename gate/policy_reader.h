// The reading of a policy document's tree (gate/policy_document.h) into rules, for
// gate/policy.cc: the values a rule's keys hold, each checked with the key's path and
// line in the error.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gate/policy_document.h"
#include "platform/status.h"
#include "probes/probe_spec.h"
#include "text/units.h"

namespace durprobe::gate {

// The value a name stands for in names (matched without case), or InvalidArgument listing the
// valid names: "unknown primitive 'fsnyc' (valid: dir_fsync, fdatasync, ...)".
template <typename Enum>
Result<Enum> Lookup(const std::map<std::string, Enum>& names, std::string_view text,
                    std::string_view what) {
  auto it = names.find(text::AsciiLower(text));
  if (it != names.end()) return it->second;
  std::string valid;
  for (const auto& entry : names) valid += (valid.empty() ? "" : ", ") + entry.first;
  return Status::InvalidArgument(fmt::format("unknown {} '{}' (valid: {})", what, text, valid));
}

// A latency limit ("10ms"): at most an hour, since more is surely a typo.
Result<std::uint64_t> LatencyLimit(std::string_view text);
// A floor in operations per second: above 0 and at most 1e9.
Result<double> RateLimit(double value, std::string_view what);
// The probe a rule reads, from its primitive, pattern and size, validated as the probes are.
Result<probes::ProbeSpec> ProbeSpecOf(std::string_view primitive, std::string_view pattern,
                                      std::string_view size);
// A rule's default name: "KIND_PRIMITIVE_PATTERN_SIZE" ("max_p99_fdatasync_overwrite_4096").
std::string RuleName(std::string_view kind, const probes::ProbeSpec& s);

// Reads a policy document's tree. Errors: "FILE:LINE: key 'a.b': problem".
class DocumentReader {
 public:
  explicit DocumentReader(const std::string& file) : file_(file) {}

  Status Error(const PolicyValue& v, const std::string& key, const std::string& problem) const;

  // The value as text: strings as is, numbers without a trailing ".0".
  Result<std::string> Text(const PolicyValue& v, const std::string& key) const;
  // A rule table's `name`, when fields (from ProbeRule) has one, into *name: a string, never a
  // number, never empty (the name identifies the rule in every output, and a Prometheus series).
  Status NameInto(const std::map<std::string, const PolicyValue*>& fields, const std::string& key,
                  std::string* name) const;
  Result<double> Number(const PolicyValue& v, const std::string& key) const;
  // A whole number in lo..hi, or the error `problem` at its line.
  Result<std::uint64_t> WholeNumber(const PolicyValue& v, const std::string& key, std::uint64_t lo,
                                    std::uint64_t hi, const std::string& problem) const;
  Result<std::vector<std::string>> Strings(const PolicyValue& v, const std::string& key) const;
  // A probe rule table: its spec from primitive/pattern/size, and the other keys it allows.
  Status ProbeRule(const PolicyValue& table, const std::string& key,
                   const std::vector<std::string>& allowed, probes::ProbeSpec* spec,
                   std::map<std::string, const PolicyValue*>* fields) const;
  Result<std::uint64_t> Duration(const PolicyValue& v, const std::string& key) const;

 private:
  std::string file_;
};

}  // namespace durprobe::gate
