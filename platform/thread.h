// Starting a thread without exceptions: std::thread throws std::system_error when the OS refuses
// a thread (EAGAIN under `ulimit -u`), which would end the run in std::terminate.
#pragma once

#include <functional>
#include <thread>

#include "platform/status.h"

namespace durprobe::platform {

// A running thread executing body, or the error that kept it from starting (nothing runs then).
Result<std::thread> StartThread(std::function<void()> body);

}  // namespace durprobe::platform
