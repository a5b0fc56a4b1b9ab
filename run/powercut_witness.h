// `durprobe powercut witness` (docs/powercut.md): the second host of the power-cut test. It
// listens for writers and verifiers (probes/powercut_protocol.h), appends every new run's HELLO
// and every ACK to its log and fdatasyncs it before it counts them (one sync per batch of lines
// read in one wait, a batch gathered for 1 ms after the last), answers a writer with receipts and
// GET with what its log holds, and reloads the log when it starts again.
// It stays up for everyone: one thread, non-blocking sockets, each connection's output queued
// and bounded (run/witness_client.h), a GET's answer made as its reader takes it; connections
// idle too long are closed, at most max_clients are served (an idle one makes room for a new
// one), accept waits a moment when descriptors run out, and a log that cannot take more (a full
// disk, its size limit) answers ERR to new HELLO and ACK work while GETs are still served.
// Stops on SIGINT/SIGTERM (within a poll's 200 ms) or after duration_ns.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "platform/platform.h"
#include "platform/tcp.h"

namespace durprobe::run {

// The log's largest size: the witness refuses a bigger one at start and new work once there.
inline constexpr std::uint64_t kWitnessMaxLogBytes = 1ull << 30;
// Descriptors kept for everything but clients (the listener, the log, standard streams, a
// connection being accepted) when the client cap comes from RLIMIT_NOFILE.
inline constexpr std::uint64_t kWitnessReservedDescriptors = 16;
// The client cap when RLIMIT_NOFILE is unlimited or higher.
inline constexpr std::size_t kWitnessMostClients = 4096;

struct WitnessOptions {
  platform::Endpoint listen;
  std::string log_path;
  std::uint64_t duration_ns = 0;  // 0: until a signal
  // A connection that sent no complete line and took none of its output for this long is closed;
  // one holding a run (a writer, whose device may stall a sync) gets held_idle_timeout_ns.
  std::uint64_t idle_timeout_ns = 30'000'000'000;
  std::uint64_t held_idle_timeout_ns = 600'000'000'000;
  // At the cap, a new connection takes the place of the one idle longest, if idle this long.
  std::uint64_t evict_idle_ns = 1'000'000'000;
  std::uint64_t max_log_bytes = kWitnessMaxLogBytes;
  // 0: RLIMIT_NOFILE less kWitnessReservedDescriptors, at most kWitnessMostClients.
  std::size_t max_clients = 0;
};

struct WitnessSummary {
  std::string listening;  // ADDR:PORT as bound (a port 0 resolved)
  std::size_t runs_loaded = 0;
  std::uint64_t acks_loaded = 0;
  std::uint64_t acks_logged = 0;  // this time
  std::uint64_t syncs = 0;        // log syncs this time
  std::uint64_t connections = 0;
  std::size_t client_cap = 0;
  std::uint64_t idle_closed = 0;    // connections closed for idling
  std::uint64_t evicted = 0;        // idle connections closed to make room at the cap
  std::uint64_t accept_pauses = 0;  // accept ran out of descriptors: a pause before the next
  std::uint64_t log_refusals = 0;   // batches the log could not take (ERR to their senders)
  std::size_t most_queued = 0;      // the most bytes one connection had queued to send
  std::size_t most_clients = 0;     // the most connections open at once
};

// Opens (creating) the log without following a symlink anywhere on its path
// (platform::OpenOwnedFile: a regular file of the running user or root, not writable by others,
// at most max_log_bytes), reloads it (cutting off a last line left half-appended by a crash,
// only in a file that is otherwise a witness log), listens, and serves until stopped.
// on_listening hears the summary once the socket is bound (what to print). Errors, each one
// line: the log refused, unreadable or not a witness log (with its line; never changed then),
// the address not bindable.
Result<WitnessSummary> RunWitness(platform::Platform& platform, const WitnessOptions& options,
                                  const std::function<void(const WitnessSummary&)>& on_listening);

}  // namespace durprobe::run
