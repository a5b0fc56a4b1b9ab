// The crash device's log (platform/crash_device.h): every write the device received (offset,
// length, where its data sits in the log file) and every flush, in the order they came, after the
// last checkpoint (the image the device had then, kept as the base). Reading the log and choosing
// which writes a crash state keeps are pure functions over bytes, so unit tests reach them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "platform/status.h"

namespace durprobe::platform {

// How the device treats a flush. The log is the same in every mode; the mode says what the live
// image keeps and which states a crash test may build from the log.
enum class CacheMode {
  kHonest,        // a flush writes the cache out before it returns
  kIgnoresFlush,  // a flush returns at once; the cache is written out only when it is full
  kTorn,          // honest, but a write that was in the cache at the cut may land half
};
const char* CacheModeName(CacheMode mode);  // "honest", "ignores-flush", "torn"

// The record layout, shared by the server that writes it and the reader: a fixed header, then
// for a write its data. Little-endian as the host is; the log never leaves the machine.
struct CrashLogHeader {
  std::uint32_t kind = 0;    // CrashEvent::Kind
  std::uint32_t length = 0;  // a write's bytes (0 otherwise)
  std::uint64_t offset = 0;  // a write's offset in the image
  std::uint64_t sequence = 0;
};
static_assert(sizeof(CrashLogHeader) == 24);

struct CrashEvent {
  enum Kind : std::uint32_t { kWrite = 1, kFlush = 2, kCheckpoint = 3 };
  Kind kind = kWrite;
  std::uint64_t offset = 0;   // in the image
  std::uint32_t length = 0;   // bytes written
  std::uint64_t data_at = 0;  // where the data starts in the log file
};

// The events since the last checkpoint, with the writes and flushes numbered apart:
// writes[i] is the i-th write, flushes[k] the index in events of the k-th flush. Flushes in a
// row, with no write between them, are one event (where the first of them was logged).
struct CrashLog {
  std::vector<CrashEvent> events;
  std::vector<std::size_t> writes;   // indexes into events
  std::vector<std::size_t> flushes;  // indexes into events
  std::uint64_t checkpoints = 0;     // checkpoint records seen (the base is the last one's)
  // The number of writes received before the k-th flush (k counted from 0); all writes for k
  // past the last flush.
  std::size_t WritesBeforeFlush(std::size_t k) const;
};

// Parses a log file's bytes. A record cut short at the end (the server killed while writing it)
// is left out, as the write it describes was never acknowledged; anything else malformed is an
// Error naming the record.
Result<CrashLog> ParseCrashLog(std::string_view bytes);

// One crash state: the base, every write received before flush `after_flush` (0: none of the
// writes after the checkpoint, so the base alone; k: the disk as it is once flush k-1 returned
// and nothing after it reached the media), plus the later writes listed in `kept` (indexes into
// CrashLog::writes, in any order: they are applied in the order received, as a later write to a
// block replaces an earlier one), and of those in `torn` only the first half of each 4 KiB block
// (a write that was landing when the power went).
struct CrashStateSpec {
  std::size_t after_flush = 0;
  std::vector<std::size_t> kept;
  std::vector<std::size_t> torn;  // a subset of kept
  // The flush the power went before (the commits acknowledged by then returned before it was
  // logged): after_flush unless set. An ignores-flush state sets it: it keeps writes past
  // flushes that returned without keeping them.
  std::optional<std::size_t> cut_before;
  std::size_t CutBefore() const { return cut_before.value_or(after_flush); }
  bool operator==(const CrashStateSpec&) const = default;
};

// A write to apply to the base, in order: image offset, bytes, and where they sit in the log.
struct StateWrite {
  std::uint64_t offset = 0;
  std::uint32_t length = 0;
  std::uint64_t data_at = 0;
};

// The writes that make a state, in the order to apply them; InvalidArgument when the spec names
// a flush past the log's, or a write that is not in the log.
Result<std::vector<StateWrite>> StateWrites(const CrashLog& log, const CrashStateSpec& spec);

// The states a crash test builds from a log, at most max_states, the same list for the same seed:
// for every flush the disk at it (after_flush 0 to the number of flushes), then seeded random
// subsets of the writes in the cache at that moment: honest, the writes between that flush and
// the next (or after the last one); torn, the same with one kept write torn; ignores-flush,
// every write before the next flush but up to 8 of the last 64 dropped (a cache that returned
// flushes early loses or reorders recent writes across them). When there are more flushes than
// max_states, the flushes kept are spread evenly, the last one always among them. No two
// subsets make the same disk for the same cut (a subset drawn again is drawn anew, 20 tries a
// state), so fewer than max_states come back only when the cache held fewer.
std::vector<CrashStateSpec> ChooseStates(const CrashLog& log, CacheMode mode,
                                         std::size_t max_states, std::uint64_t seed);

// The spec as text, so a reported state can be rebuilt: "flush 3 + writes 17,19 (torn 19)";
// runs of writes are ranges ("writes 0-57,59"); a cut_before as "; cut before flush 12".
std::string DescribeState(const CrashStateSpec& spec);
// The spec DescribeState's words stand for (writes in ascending order); InvalidArgument naming
// the first word it cannot read.
Result<CrashStateSpec> ParseStateDescription(std::string_view text);

}  // namespace durprobe::platform
