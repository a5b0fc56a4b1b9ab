// The sync observer where the build has no BPF (another OS, or no clang to compile the program).
#include "platform/sync_observer.h"

namespace durprobe::platform {

Result<std::unique_ptr<SyncObserver>> OpenSyncObserver(const SyncObserverFilter&) {
  return Status::Unsupported(
      "this build of durprobe has no BPF observer (it needs Linux and clang at build time)");
}

}  // namespace durprobe::platform
