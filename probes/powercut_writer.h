// The host under test's half of `durprobe powercut write` (docs/powercut.md): records written
// one per slot in a preallocated file, each made durable with the chosen primitive, and only once
// its sync returned reported to the witness on an open connection (probes/powercut_protocol.h).
// The writer never waits for a receipt per record, but stops when more than max_outstanding
// acks are unanswered for receipt_timeout_ns, or when the witness goes away: it never writes on
// without a witness to tell. Measures; prints nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "platform/platform.h"
#include "probes/probe_spec.h"

namespace durprobe::probes {

struct PowercutWriterOptions {
  Primitive primitive = Primitive::kFdatasync;
  std::uint64_t record_size = 4096;
  // slots = file_bytes / record_size; record seq goes to slot seq % slots (round and round)
  std::uint64_t file_bytes = 64ull << 20;
  std::uint64_t max_outstanding = 1024;
  std::uint64_t receipt_timeout_ns = 10'000'000'000ull;
  std::uint64_t duration_ns = 0;  // 0: until the file is full, a signal or the power goes
};

// Why the writer stopped.
enum class WriterStop {
  kDuration,     // --for ran out
  kInterrupted,  // SIGINT/SIGTERM
  kWitnessGone,  // the connection closed or failed
  kWitnessSlow,  // too many acks unanswered for too long
  kIoError,      // a write or sync failed
};
std::string_view NameOf(WriterStop s);

struct PowercutWriteResult {
  std::uint64_t synced = 0;    // records written and synced
  std::uint64_t acked = 0;     // acks sent to the witness (each after its sync returned)
  std::uint64_t receipts = 0;  // acks the witness said it logged
  std::uint64_t elapsed_ns = 0;
  WriterStop stop = WriterStop::kDuration;
  std::string reason;  // for the stops that are failures: what happened, in one sentence
  double RecordsPerSecond() const;
};

// Whether the writer can use p: a durable primitive that writes with pwrite (and its sync) or
// an O_DSYNC-style descriptor; InvalidArgument naming it otherwise.
Status CheckWriterPrimitive(Primitive p);

// Creates `file` (a path under a descriptor path, created new: O_EXCL), fills it with zeros,
// syncs it and its directory dir: the slots. The handle comes back open for the records.
Result<platform::FileHandle> PreallocateRecords(platform::Platform& platform,
                                                const std::string& dir, const std::string& file,
                                                const PowercutWriterOptions& options);

// Makes record `sequence` (its bytes in record) durable in its slot: written and synced, or
// committed. Ok only once it is; an error stops the writer (kIoError) before the record is
// acknowledged. receipts: how many acks the witness has said it logged so far (0 to n - 1).
using DurableWrite = std::function<Status(
    std::uint64_t sequence, std::span<const std::uint8_t> record, std::uint64_t receipts)>;

// Records 0, 1, ... of run_id, each made durable by write, then acked on
// socket (a witness connection that already said WELCOME). Stops as PowercutWriteResult::stop
// says. The loop every mode shares (the file's below, SQLite's in sqlite_bench/).
PowercutWriteResult AckRecords(platform::Platform& platform, int socket, const std::string& run_id,
                               const PowercutWriterOptions& options, const DurableWrite& write);

// The file mode: record i at slot i % slots of fd, with options.primitive's write and sync.
PowercutWriteResult WriteRecords(platform::Platform& platform, int fd, int socket,
                                 const std::string& run_id, const PowercutWriterOptions& options);

}  // namespace durprobe::probes
