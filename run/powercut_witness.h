// `durprobe powercut witness` (docs/powercut.md): the second host of the power-cut test. It
// listens for writers and verifiers (probes/powercut_protocol.h), appends every HELLO and ACK to
// its log and fdatasyncs it before it counts them (one sync per batch of lines read in one wait,
// a batch gathered for 1 ms after the last),
// answers a writer with receipts and GET with what its log holds, and reloads the log when it
// starts again. Several writers at once. Stops on SIGINT/SIGTERM or after duration_ns.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "platform/platform.h"
#include "platform/tcp.h"

namespace durprobe::run {

struct WitnessOptions {
  platform::Endpoint listen;
  std::string log_path;
  std::uint64_t duration_ns = 0;  // 0: until a signal
};

struct WitnessSummary {
  std::string listening;  // ADDR:PORT as bound (a port 0 resolved)
  std::size_t runs_loaded = 0;
  std::uint64_t acks_loaded = 0;
  std::uint64_t acks_logged = 0;  // this time
  std::uint64_t syncs = 0;        // log syncs this time
  std::uint64_t connections = 0;
};

// Opens (creating) the log without following a symlink, reloads it (cutting off a last line
// left half-appended by a crash), listens, and serves until stopped. on_listening hears the
// summary once the socket is bound (what to print). Errors: the log unreadable or malformed
// (with its line), the address not bindable.
Result<WitnessSummary> RunWitness(platform::Platform& platform, const WitnessOptions& options,
                                  const std::function<void(const WitnessSummary&)>& on_listening);

}  // namespace durprobe::run
