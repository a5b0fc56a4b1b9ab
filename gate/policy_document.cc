#include "gate/policy_document.h"

#include <fmt/format.h>
// toml++ is compiled in from its headers (CMakeLists.txt): its internal asserts stay off as in
// Debian's release build of the library, whatever this build's NDEBUG (an assert in its key
// parser aborted the sanitizer build's policy fuzzer on `[[.a.a...` with the checks on).
#define TOML_ASSERT(expr) static_assert(true)
#include <toml++/toml.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include "text/json_scan.h"

namespace durprobe::gate {
namespace {

// A policy is a few flat tables (the deepest, `latency = [{...}]`, is 3 levels). Deeper nesting
// is refused before anything walks it recursively, so a hostile document cannot exhaust the
// stack (a JSON policy nested 10,000 deep crashed the reader).
constexpr int kMaxPolicyDepth = 16;

Status TooDeep(const std::string& file, int line) {
  return Status::InvalidArgument(
      fmt::format("{}:{}: nested deeper than {} levels: a policy is a few flat tables", file, line,
                  kMaxPolicyDepth));
}

// fallback_line: the line of the key naming node, for implicit tables toml++ gives no source.
Status FromToml(const toml::node& node, const std::string& file, int depth, int fallback_line,
                PolicyValue& v) {
  v.line = static_cast<int>(node.source().begin.line);
  if (v.line == 0) v.line = fallback_line;
  if (depth > kMaxPolicyDepth) return TooDeep(file, v.line);
  if (const toml::table* t = node.as_table()) {
    v.kind = PolicyValue::Kind::kTable;
    for (const auto& [key, child] : *t) {
      PolicyValue c;
      Status s = FromToml(child, file, depth + 1, static_cast<int>(key.source().begin.line), c);
      if (!s.ok()) return s;
      v.fields.push_back({std::string(key.str()), std::move(c)});
    }
    // toml++ keeps a table's keys sorted: back to document order, as JSON's are.
    std::stable_sort(
        v.fields.begin(), v.fields.end(),
        [](const PolicyField& a, const PolicyField& b) { return a.value.line < b.value.line; });
  } else if (const toml::array* a = node.as_array()) {
    v.kind = PolicyValue::Kind::kArray;
    for (const toml::node& child : *a) {
      v.items.emplace_back();
      Status s = FromToml(child, file, depth + 1, v.line, v.items.back());
      if (!s.ok()) return s;
    }
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
  return Status::Ok();
}

// Builds the tree from nlohmann's SAX events, in document order and in one pass: each key's line
// comes from JsonKeyOffsets, whose n-th offset is the n-th key event (the old tree walk searched
// the text from its start for every key, 38 s for 80k keys). A key twice in one object is an
// error, not the last one silently winning.
class PolicyJsonBuilder {
 public:
  PolicyJsonBuilder(std::string_view text, const std::string& file)
      : text_(text), file_(file), keys_(text::JsonKeyOffsets(text)), lines_(text) {}

  bool null() { return Scalar(PolicyValue::Kind::kString, "null"); }
  bool boolean(bool b) {
    PolicyValue v = Value(PolicyValue::Kind::kBool);
    v.flag = b;
    return Add(std::move(v));
  }
  bool number_integer(std::int64_t n) { return Number(static_cast<double>(n)); }
  bool number_unsigned(std::uint64_t n) { return Number(static_cast<double>(n)); }
  bool number_float(double n, const std::string&) { return Number(n); }
  bool string(std::string& s) { return Scalar(PolicyValue::Kind::kString, s); }
  bool binary(nlohmann::json::binary_t&) { return Scalar(PolicyValue::Kind::kString, "binary"); }
  bool start_object(std::size_t) { return Open(PolicyValue::Kind::kTable); }
  bool start_array(std::size_t) { return Open(PolicyValue::Kind::kArray); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }
  bool key(std::string& k) {
    Frame& f = stack_.back();
    f.key_line = next_key_ < keys_.size() ? lines_.LineAt(keys_[next_key_]) : f.value.line;
    ++next_key_;
    if (!f.seen.insert(k).second) {
      error_ = Status::InvalidArgument(
          fmt::format("{}:{}: key '{}' appears twice in one table", file_, f.key_line, k));
      return false;
    }
    f.key = k;
    return true;
  }
  // position is the parser's byte offset just past the token it stopped on; the line is that
  // token's, counted from the text (never read out of the exception's message).
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
    const int line = text::LineCounter(text_).LineAt(position == 0 ? 0 : position - 1);
    if (e.id == 406) {  // a number beyond a double: "1E999" (found by the policy fuzzer)
      error_ = Status::InvalidArgument(
          fmt::format("{}:{}: invalid JSON: a number too large for a double", file_, line));
    } else if (dynamic_cast<const nlohmann::json::parse_error*>(&e) != nullptr) {
      error_ = Status::InvalidArgument(
          fmt::format("{}:{}: invalid JSON at byte {}", file_, line, position));
    } else {
      error_ = Status::InvalidArgument(fmt::format("{}:1: invalid JSON", file_));
    }
    return false;
  }

  Result<PolicyValue> Take() {
    if (!error_.ok()) return error_;
    if (!done_) return Status::InvalidArgument(fmt::format("{}:1: invalid JSON", file_));
    if (root_.kind != PolicyValue::Kind::kTable) {
      return Status::InvalidArgument(fmt::format("{}:1: a policy is a JSON object", file_));
    }
    return std::move(root_);
  }

 private:
  struct Frame {
    PolicyValue value;
    std::string key;
    int key_line = 0;
    std::unordered_set<std::string> seen;
  };

  PolicyValue Value(PolicyValue::Kind kind) const {
    PolicyValue v;
    v.kind = kind;
    if (stack_.empty()) {
      v.line = 1;
    } else {
      const Frame& parent = stack_.back();
      v.line = parent.value.kind == PolicyValue::Kind::kTable ? parent.key_line : parent.value.line;
    }
    return v;
  }
  bool Scalar(PolicyValue::Kind kind, std::string text) {
    PolicyValue v = Value(kind);
    v.text = std::move(text);
    return Add(std::move(v));
  }
  bool Number(double n) {
    PolicyValue v = Value(PolicyValue::Kind::kNumber);
    v.number = n;
    return Add(std::move(v));
  }
  bool Open(PolicyValue::Kind kind) {
    Frame f;
    f.value = Value(kind);
    stack_.push_back(std::move(f));
    return true;
  }
  bool Close() {
    PolicyValue v = std::move(stack_.back().value);
    stack_.pop_back();
    // A table in an array stands where its first key does (the array's line is the default).
    bool in_array = !stack_.empty() && stack_.back().value.kind == PolicyValue::Kind::kArray;
    if (in_array && v.kind == PolicyValue::Kind::kTable && !v.fields.empty()) {
      v.line = v.fields.front().value.line;
    }
    return Add(std::move(v));
  }
  bool Add(PolicyValue v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      done_ = true;
    } else if (Frame& parent = stack_.back(); parent.value.kind == PolicyValue::Kind::kTable) {
      parent.value.fields.push_back({parent.key, std::move(v)});
    } else {
      parent.value.items.push_back(std::move(v));
    }
    return true;
  }

  std::string_view text_;
  const std::string& file_;
  std::vector<std::size_t> keys_;
  std::size_t next_key_ = 0;
  text::LineCounter lines_;
  std::vector<Frame> stack_;
  PolicyValue root_;
  bool done_ = false;
  Status error_ = Status::Ok();
};

}  // namespace

// toml++ reports syntax errors by exception; they stop here and become a value.
Result<PolicyValue> ParseTomlDocument(std::string_view text, const std::string& file) {
  try {
    toml::table table = toml::parse(text, file);
    PolicyValue v;
    if (Status s = FromToml(table, file, 1, 1, v); !s.ok()) return s;
    v.line = 1;
    return v;
  } catch (const toml::parse_error& e) {
    return Status::InvalidArgument(
        fmt::format("{}:{}: {}", file, e.source().begin.line, std::string(e.description())));
  }
}

Result<PolicyValue> ParseJsonDocument(std::string_view text, const std::string& file) {
  if (std::size_t at = text::JsonTooDeepAt(text, kMaxPolicyDepth); at != std::string_view::npos) {
    return TooDeep(file, text::LineCounter(text).LineAt(at));
  }
  PolicyJsonBuilder builder(text, file);
  nlohmann::json::sax_parse(text, &builder);
  return builder.Take();
}

}  // namespace durprobe::gate
