#include "platform/status.h"

#include <fmt/format.h>

#include <cstring>

namespace durprobe {

Status Status::FromErrno(int err, std::string_view context) {
  char buf[256];
  // GNU strerror_r may return a static string instead of filling buf; handle both.
  const char* text = nullptr;
#if defined(_GNU_SOURCE) && !defined(__APPLE__)
  text = strerror_r(err, buf, sizeof buf);
#else
  text = strerror_r(err, buf, sizeof buf) == 0 ? buf : "unknown error";
#endif
  return Status(Kind::kError, err, fmt::format("{}: {}", context, text));
}

Status Status::Interrupted(int signal_number) {
  return Status(Kind::kInterrupted, 0, fmt::format("interrupted by signal {}", signal_number));
}

}  // namespace durprobe
