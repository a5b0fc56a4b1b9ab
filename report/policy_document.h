// A policy file's tree with the line each value sits on, read from TOML (toml++) or JSON
// (nlohmann), so one validator (report/check_policy.cc) reads both and names lines in errors.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "platform/status.h"

namespace durprobe::report {

struct PolicyValue {
  enum class Kind { kString, kNumber, kBool, kArray, kTable };
  Kind kind = Kind::kTable;
  std::string text;
  double number = 0.0;
  bool flag = false;
  std::vector<PolicyValue> items;                           // kArray
  std::vector<std::pair<std::string, PolicyValue>> fields;  // kTable, in document order
  int line = 0;                                             // 1-based; 0 when unknown
};

// InvalidArgument "FILE:LINE: ..." on a syntax error.
Result<PolicyValue> ParseTomlDocument(std::string_view text, const std::string& file);
// JSON has no positions in nlohmann's tree: a key's line is where "key" first appears after its
// parent's line, which is exact for the flat documents policies are.
Result<PolicyValue> ParseJsonDocument(std::string_view text, const std::string& file);

}  // namespace durprobe::report
