#include "platform/interrupt.h"

#include <pthread.h>
#include <signal.h>

#include <atomic>

namespace durprobe::platform {
namespace {

std::atomic<int> g_signal{0};

extern "C" void RecordSignal(int signal_number) { g_signal.store(signal_number); }

}  // namespace

void InstallInterruptHandlers() {
  struct sigaction action {};
  action.sa_handler = RecordSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a blocking call returns EINTR and the loop notices
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

void BlockInterruptsInThisThread() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

int InterruptSignal() { return g_signal.load(); }

void SetInterruptSignalForTest(int signal_number) { g_signal.store(signal_number); }

}  // namespace durprobe::platform
