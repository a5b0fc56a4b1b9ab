#include "codec/json_text.h"

#include <fmt/format.h>

#include <functional>
#include <unordered_set>

#include "text/json_scan.h"

namespace durprobe::codec {
namespace {

using nlohmann::json;

// Watches nlohmann's parse events for a key given twice in one object: the tree keeps the last
// one silently, so a report could carry `commits_per_sec` 1 and then 999999 and be read as the
// second. Records the first such key, the object it is in (targets[0].sqlite[2]) and which key
// of the document it is, so its line can be found once, afterwards.
class DuplicateKeys {
 public:
  bool operator()(int, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
        stack_.push_back({true, {}, {}, 0});
        break;
      case json::parse_event_t::array_start:
        stack_.push_back({false, {}, {}, 0});
        break;
      case json::parse_event_t::key: {
        Frame& f = stack_.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second && key_.empty()) {
          key_ = f.key;
          where_ = PathOfTop();
          key_number_ = keys_seen_;
        }
        ++keys_seen_;
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        if (!stack_.empty()) stack_.pop_back();
        Advance();
        break;
      case json::parse_event_t::value:
        Advance();
        break;
    }
    return true;
  }

  // Ok, or the first key given twice: "key 'x' appears twice in targets[0] (line 9)".
  Status Check(const std::string& text) const {
    if (key_.empty()) return Status::Ok();
    std::vector<std::size_t> offsets = text::JsonKeyOffsets(text);
    int line = 0;
    if (key_number_ < offsets.size()) {
      line =
          1 + static_cast<int>(std::count(text.begin(), text.begin() + offsets[key_number_], '\n'));
    }
    std::string in = where_.empty() ? "the top-level object" : where_;
    return Status::InvalidArgument(
        line > 0
            ? fmt::format("key '{}' appears twice in {} (line {}): a report names each key "
                          "once",
                          key_, in, line)
            : fmt::format("key '{}' appears twice in {}: a report names each key once", key_, in));
  }

 private:
  struct Frame {
    bool object;
    std::unordered_set<std::string> keys;
    std::string key;    // in an object: the key being read
    std::size_t index;  // in an array: the element being read
  };

  // A value (or a whole object or array) ended: an array moves to its next element.
  void Advance() {
    if (!stack_.empty() && !stack_.back().object) ++stack_.back().index;
  }
  // Where the innermost object stands, from the root: "targets[0].sqlite[2]".
  std::string PathOfTop() const {
    std::string path;
    for (std::size_t i = 0; i + 1 < stack_.size(); ++i) {
      const Frame& f = stack_[i];
      if (f.object) {
        path += (path.empty() ? "" : ".") + f.key;
      } else {
        path += fmt::format("[{}]", f.index);
      }
    }
    return path;
  }

  std::vector<Frame> stack_;
  std::size_t keys_seen_ = 0;
  std::string key_, where_;
  std::size_t key_number_ = 0;
};

}  // namespace

// A report is at most about ten levels deep. nlohmann's parser does not recurse, but every walk
// of its tree does (the typed reader, dump): deeper text is refused before it is parsed.
constexpr int kMaxReportDepth = 64;

Result<json> ParseJsonText(const std::string& text) {
  if (std::size_t at = text::JsonTooDeepAt(text, kMaxReportDepth); at != std::string::npos) {
    return Status::InvalidArgument(fmt::format(
        "not valid JSON: nested deeper than {} levels at byte {} (a report is about ten deep)",
        kMaxReportDepth, at + 1));
  }
  try {
    DuplicateKeys duplicates;
    json doc = json::parse(text, std::ref(duplicates));
    if (Status once = duplicates.Check(text); !once.ok()) return once;
    return doc;
  } catch (const json::out_of_range&) {  // a number beyond a double (1e999), found by fuzzing
    return Status::InvalidArgument("not valid JSON: a number too large to represent");
  } catch (const json::parse_error& e) {
    if (e.byte >= text.size()) {
      return Status::InvalidArgument("not valid JSON: it ends early (truncated?)");
    }
    return Status::InvalidArgument(fmt::format("not valid JSON: syntax error at byte {}", e.byte));
  }
}

}  // namespace durprobe::codec
