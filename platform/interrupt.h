// SIGINT/SIGTERM handling. The handler only records the signal; measurement loops poll
// InterruptSignal() and unwind, so scratch directories are removed by their owners on the way out.
#pragma once

namespace durprobe::platform {

void InstallInterruptHandlers();
// The signal received (SIGINT, SIGTERM), or 0.
int InterruptSignal();
// Keeps SIGINT and SIGTERM away from the calling thread (a helper thread, such as the progress
// ticker), so they reach the measuring thread and interrupt its blocking call.
void BlockInterruptsInThisThread();
// For tests: pretend a signal arrived (0 clears it).
void SetInterruptSignalForTest(int signal_number);

}  // namespace durprobe::platform
