// The power-cut test's record (`durprobe powercut`, docs/powercut.md): one fixed-size block that
// the writer puts in slot `sequence` of its file, syncs, and only then reports to the witness.
// Layout, little-endian, record_size bytes (a multiple of 512, at least kRecordHeaderBytes):
//   0  magic "DPPCREC1" (8 bytes)     8  sequence (u64)
//   16 run id (16 ASCII characters)   32 record size (u32)   36 zero (u32)
//   40 checksum (u64): FNV-1a over the record's 64-bit words but this one (RecordChecksum)
//   48 padding, a pattern made from the run id and the sequence, so each slot's bytes differ
// A slot of zeros was never written (the file is preallocated with zeros), and a slot holding an
// earlier record of the run, whole (the writer goes round its slots), lost its later write: both
// are missing. A slot holding the writer's next record there, never acknowledged (its sync was
// under way when the power went), whole or each 512-byte sector either the old record's or the
// new one's, is in flight: an honest device may keep it. Anything else is torn (half a write,
// garbage). Pure functions over bytes, unit-tested.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "platform/status.h"

namespace durprobe::probes {

inline constexpr std::size_t kRecordHeaderBytes = 48;
inline constexpr std::size_t kRunIdChars = 16;
inline constexpr std::size_t kDefaultRecordBytes = 4096;

// Ok for a size the writer accepts: a multiple of 512 from 512 to 1 MiB; else InvalidArgument.
Status CheckRecordSize(std::uint64_t bytes);
// Ok for 16 characters of [0-9a-f]; else InvalidArgument naming the run id.
Status CheckRunId(std::string_view run_id);

// FNV-1a 64 over bytes, continuing from hash (start with kFnvOffset).
inline constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ull;
std::uint64_t Fnv1a64(std::span<const std::uint8_t> bytes, std::uint64_t hash = kFnvOffset);

// Fills out (record size bytes) with the record for sequence in run run_id (CheckRunId'd);
// returns its checksum.
std::uint64_t EncodeRecord(std::uint64_t sequence, std::string_view run_id,
                           std::span<std::uint8_t> out);

enum class RecordState {
  kPresent,  // a valid record of this run and sequence
  kMissing,  // zeros, or an earlier record of the run: the write never reached the media
  kTorn,     // anything else: part of a write, another record, a bad checksum
  // a later record of the run in the same slot that the witness never heard of, whole or mixed
  // sector by sector with the acknowledged one: the write under way at the cut (not a loss)
  kInFlight,
};
std::string_view NameOf(RecordState s);  // "present", "missing", "torn", "in_flight"

inline constexpr std::size_t kSectorBytes = 512;

// What slot `sequence` of run run_id holds; with expected_checksum set (the witness's), a valid
// record whose checksum differs from it is torn too.
RecordState CheckRecord(std::span<const std::uint8_t> slot, std::uint64_t sequence,
                        std::string_view run_id, std::uint64_t expected_checksum);

// CheckRecord for a slot of a file the writer goes round: the slot's newest acknowledged record
// sequence, the slots, and the highest sequence the witness holds. A slot that CheckRecord finds
// not present is in flight when it holds record t (t = sequence mod slots, t > highest_acked),
// whole, or when each sector is sequence's or t's (t read from the slot's header, else
// sequence + slots); zeros or any other sector stay missing or torn.
RecordState CheckSlot(std::span<const std::uint8_t> slot, std::uint64_t sequence,
                      std::string_view run_id, std::uint64_t expected_checksum, std::uint64_t slots,
                      std::uint64_t highest_acked);

// The sequence in a record's header when it is a record of run_id (magic and run id match),
// whatever its checksum; nullopt otherwise.
std::optional<std::uint64_t> HeaderSequence(std::span<const std::uint8_t> slot,
                                            std::string_view run_id);

}  // namespace durprobe::probes
