// The signals that end a run: SIGINT, SIGTERM, SIGHUP (a session dropping), SIGQUIT, SIGPIPE
// (stdout or stderr closed, as by `| head -1`) and SIGXFSZ (a write past `ulimit -f`). The handler
// only records the signal; measurement loops poll InterruptSignal() and unwind, so scratch
// directories are removed by their owners on the way out and the partial report is still written.
#pragma once

namespace durprobe::platform {

void InstallInterruptHandlers();
// The signal received (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXFSZ), or 0.
int InterruptSignal();
// "SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGPIPE (output closed)", "SIGXFSZ (...)", or
// "another signal".
const char* SignalName(int signal_number);
// Keeps SIGINT, SIGTERM, SIGHUP and SIGQUIT away from the calling thread (a helper thread, such as
// the progress ticker), so they reach the measuring thread and interrupt its blocking call.
// SIGPIPE is not blocked: it goes to the thread whose write failed, which records it.
void BlockInterruptsInThisThread();
// For tests: pretend a signal arrived (0 clears it).
void SetInterruptSignalForTest(int signal_number);

}  // namespace durprobe::platform
