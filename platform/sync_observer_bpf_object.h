// The sync observer's BPF object (bpf/sync_observer.bpf.c compiled by clang -target bpf at build
// time), embedded in the binary by the build (cmake/EmbedFile.cmake).
#pragma once

#include <string_view>

namespace durprobe::platform {

std::string_view SyncObserverBpfObject();

}  // namespace durprobe::platform
