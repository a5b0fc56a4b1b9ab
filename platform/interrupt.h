// SIGINT/SIGTERM handling. The handler only records the signal; measurement loops poll
// InterruptSignal() and unwind, so scratch directories are removed by their owners on the way out.
#pragma once

namespace durprobe::platform {

void InstallInterruptHandlers();
// The signal received (SIGINT, SIGTERM), or 0.
int InterruptSignal();
// For tests: pretend a signal arrived (0 clears it).
void SetInterruptSignalForTest(int signal_number);

}  // namespace durprobe::platform
