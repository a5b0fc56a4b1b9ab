#include "report/check/policy_document.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <nlohmann/json.hpp>

namespace durprobe::report {
namespace {

PolicyValue FromToml(const toml::node& node) {
  PolicyValue v;
  v.line = static_cast<int>(node.source().begin.line);
  if (const toml::table* t = node.as_table()) {
    v.kind = PolicyValue::Kind::kTable;
    for (const auto& [key, child] : *t) {
      PolicyValue c = FromToml(child);
      if (c.line == 0) c.line = static_cast<int>(key.source().begin.line);
      v.fields.push_back({std::string(key.str()), std::move(c)});
    }
  } else if (const toml::array* a = node.as_array()) {
    v.kind = PolicyValue::Kind::kArray;
    for (const toml::node& child : *a) v.items.push_back(FromToml(child));
  } else if (auto s = node.value<std::string>(); s && node.is_string()) {
    v.kind = PolicyValue::Kind::kString;
    v.text = *s;
  } else if (node.is_boolean()) {
    v.kind = PolicyValue::Kind::kBool;
    v.flag = *node.value<bool>();
  } else if (node.is_number()) {
    v.kind = PolicyValue::Kind::kNumber;
    v.number = *node.value<double>();
  } else {  // dates and times: no policy key takes one
    v.kind = PolicyValue::Kind::kString;
    v.text = "(date or time)";
  }
  return v;
}

int LineOf(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
}

std::size_t OffsetOfLine(std::string_view text, int line) {
  std::size_t pos = 0;
  for (int l = 1; l < line && pos != std::string_view::npos; ++l) {
    pos = text.find('\n', pos);
    if (pos != std::string_view::npos) ++pos;
  }
  return pos == std::string_view::npos ? text.size() : pos;
}

PolicyValue FromJson(const nlohmann::json& j, std::string_view text, int line) {
  PolicyValue v;
  v.line = line;
  if (j.is_object()) {
    v.kind = PolicyValue::Kind::kTable;
    int cursor = line;
    for (const auto& [key, child] : j.items()) {
      std::size_t at = text.find(nlohmann::json(key).dump(), OffsetOfLine(text, cursor));
      int key_line = at == std::string_view::npos ? line : LineOf(text, at);
      v.fields.push_back({key, FromJson(child, text, key_line)});
    }
  } else if (j.is_array()) {
    v.kind = PolicyValue::Kind::kArray;
    for (const nlohmann::json& child : j) v.items.push_back(FromJson(child, text, line));
  } else if (j.is_string()) {
    v.kind = PolicyValue::Kind::kString;
    v.text = j.get<std::string>();
  } else if (j.is_boolean()) {
    v.kind = PolicyValue::Kind::kBool;
    v.flag = j.get<bool>();
  } else if (j.is_number()) {
    v.kind = PolicyValue::Kind::kNumber;
    v.number = j.get<double>();
  } else {
    v.kind = PolicyValue::Kind::kString;
    v.text = "null";
  }
  return v;
}

}  // namespace

// toml++ reports syntax errors by exception; they stop here and become a value.
Result<PolicyValue> ParseTomlDocument(std::string_view text, const std::string& file) {
  try {
    toml::table table = toml::parse(text, file);
    PolicyValue v = FromToml(table);
    v.line = 1;
    return v;
  } catch (const toml::parse_error& e) {
    return Status::InvalidArgument(
        fmt::format("{}:{}: {}", file, e.source().begin.line, std::string(e.description())));
  }
}

Result<PolicyValue> ParseJsonDocument(std::string_view text, const std::string& file) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    // Find where it broke: nlohmann's message names the byte, so parse again for it.
    try {
      nlohmann::json again = nlohmann::json::parse(text);
      (void)again;
    } catch (const nlohmann::json::parse_error& e) {
      return Status::InvalidArgument(fmt::format("{}:{}: invalid JSON at byte {}", file,
                                                 LineOf(text, e.byte == 0 ? 0 : e.byte - 1),
                                                 e.byte));
    } catch (const nlohmann::json::out_of_range& e) {
      // A number beyond a double ("number overflow parsing '1E999'"): its line, from the
      // number the message quotes (found by the policy fuzzer).
      std::string what = e.what();
      std::size_t open = what.find('\''), close = what.rfind('\'');
      std::size_t at = std::string_view::npos;
      if (open != std::string::npos && close > open) {
        at = text.find(std::string_view(what).substr(open + 1, close - open - 1));
      }
      return Status::InvalidArgument(
          fmt::format("{}:{}: invalid JSON: a number too large for a double", file,
                      at == std::string_view::npos ? 1 : LineOf(text, at)));
    }
    return Status::InvalidArgument(fmt::format("{}:1: invalid JSON", file));
  }
  if (!j.is_object()) {
    return Status::InvalidArgument(fmt::format("{}:1: a policy is a JSON object", file));
  }
  return FromJson(j, text, 1);
}

}  // namespace durprobe::report
