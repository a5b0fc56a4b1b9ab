#include "platform/thread.h"

#include <system_error>
#include <utility>

namespace durprobe::platform {

Result<std::thread> StartThread(std::function<void()> body) {
  try {
    return std::thread(std::move(body));
  } catch (const std::system_error& e) {
    return Status::FromErrno(e.code().value(), "cannot start a thread");
  }
}

}  // namespace durprobe::platform
