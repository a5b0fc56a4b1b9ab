// A policy file's tree with the line each value sits on, read from TOML (toml++) or JSON
// (nlohmann), so one validator (gate/policy.cc) reads both and names lines in errors.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "platform/status.h"

namespace durprobe::gate {

struct PolicyField;

struct PolicyValue {
  enum class Kind { kString, kNumber, kBool, kArray, kTable };
  Kind kind = Kind::kTable;
  std::string text;
  double number = 0.0;
  bool flag = false;
  std::vector<PolicyValue> items;  // kArray
  // kTable, in document order. A named struct rather than std::pair<std::string, PolicyValue>:
  // a pair of this still incomplete type is instantiated (and rejected) by clang with libstdc++.
  std::vector<PolicyField> fields;
  int line = 0;  // 1-based; 0 when unknown
};

struct PolicyField {
  std::string key;
  PolicyValue value;
};

// InvalidArgument "FILE:LINE: ..." on a syntax error.
Result<PolicyValue> ParseTomlDocument(std::string_view text, const std::string& file);
// A key's line is its own (nlohmann's tree has no positions: they come from a scan of the text).
// Both refuse a document nested deeper than a policy can be, and JSON a key twice in one table.
Result<PolicyValue> ParseJsonDocument(std::string_view text, const std::string& file);

}  // namespace durprobe::gate
