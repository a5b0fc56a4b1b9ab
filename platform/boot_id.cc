#include "platform/boot_id.h"

namespace durprobe::platform {

Result<std::string> ReadBootId(Platform& platform) {
#ifdef __linux__
  Result<std::string> text = platform.ReadTextFile("/proc/sys/kernel/random/boot_id", 128);
  if (!text.ok()) return text.status();
  std::string id = *text;
  while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.pop_back();
  if (id.empty()) return Status::Error("/proc/sys/kernel/random/boot_id is empty");
  return id;
#else
  (void)platform;
  return Status::Unsupported("this OS has no boot id");
#endif
}

}  // namespace durprobe::platform
