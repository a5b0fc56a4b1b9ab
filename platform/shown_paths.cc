#include "platform/shown_paths.h"

#include <map>
#include <mutex>
#include <string_view>

namespace durprobe::platform {
namespace {

struct Registry {
  std::mutex mu;  // writer threads build messages while the main thread makes scratch
  std::map<std::string, std::string> shown;
};

Registry& TheRegistry() {
  static Registry* registry = new Registry;  // never destroyed: messages outlive static teardown
  return *registry;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

void ShowDescriptorPathAs(const std::string& descriptor_path, const std::string& shown) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.shown[descriptor_path] = shown;
}

void ForgetDescriptorPath(const std::string& descriptor_path) {
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.shown.erase(descriptor_path);
}

std::string ShownPaths(std::string text) {
  if (text.find(kDescriptorPathPrefix) == std::string::npos) return text;
  Registry& r = TheRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::string out;
  std::size_t from = 0;
  for (std::size_t at = text.find(kDescriptorPathPrefix); at != std::string::npos;
       at = text.find(kDescriptorPathPrefix, from)) {
    std::size_t end = at + kDescriptorPathPrefix.size();
    while (end < text.size() && IsDigit(text[end])) ++end;
    auto it = r.shown.find(text.substr(at, end - at));
    out.append(text, from, at - from);
    out += it == r.shown.end() ? text.substr(at, end - at) : it->second;
    from = end;
  }
  out.append(text, from, std::string::npos);
  return out;
}

}  // namespace durprobe::platform
