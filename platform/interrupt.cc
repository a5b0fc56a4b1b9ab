#include "platform/interrupt.h"

#include <pthread.h>
#include <signal.h>

#include <atomic>

namespace durprobe::platform {
namespace {

std::atomic<int> g_signal{0};

// The first signal wins, so a SIGPIPE from printing the interruption does not rename it.
extern "C" void RecordSignal(int signal_number) {
  int none = 0;
  g_signal.compare_exchange_strong(none, signal_number);
}

constexpr int kBlockable[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

}  // namespace

void InstallInterruptHandlers() {
  struct sigaction action {};
  action.sa_handler = RecordSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocking call returns EINTR and the loop notices
  for (int sig : kBlockable) sigaction(sig, &action, nullptr);
  // A write to a closed stdout then fails with EPIPE instead of killing the process unseen.
  sigaction(SIGPIPE, &action, nullptr);
  // A write past `ulimit -f` then fails with EFBIG, and the run ends removing its scratch.
  sigaction(SIGXFSZ, &action, nullptr);
}

void BlockInterruptsInThisThread() {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : kBlockable) sigaddset(&set, sig);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

int InterruptSignal() { return g_signal.load(); }

const char* SignalName(int signal_number) {
  switch (signal_number) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGPIPE:
      return "SIGPIPE (output closed)";
    case SIGXFSZ:
      return "SIGXFSZ (a file reached the size limit, ulimit -f)";
    default:
      return "another signal";
  }
}

void SetInterruptSignalForTest(int signal_number) { g_signal.store(signal_number); }

}  // namespace durprobe::platform
