// The power-cut test's record (`durprobe powercut`, docs/powercut.md): one fixed-size block that
// the writer puts in slot `sequence` of its file, syncs, and only then reports to the witness.
// Layout, little-endian, record_size bytes (a multiple of 512, at least kRecordHeaderBytes):
//   0  magic "DPPCREC1" (8 bytes)     8  sequence (u64)
//   16 run id (16 ASCII characters)   32 record size (u32)   36 zero (u32)
//   40 checksum (u64): FNV-1a over the record's 64-bit words but this one (RecordChecksum)
//   48 padding, a pattern made from the run id and the sequence, so each slot's bytes differ
// A slot of zeros was never written (the file is preallocated with zeros), and a slot holding an
// earlier record of the run, whole (the writer goes round its slots), lost its later write: both
// are missing. Anything else that is not the record asked for is torn (half a write, garbage).
// Pure functions over bytes, unit-tested.
#pragma once

#include <cstddef>
#include <cstdint>
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
};
std::string_view NameOf(RecordState s);  // "present", "missing", "torn"

// What slot `sequence` of run run_id holds; with expected_checksum set (the witness's), a valid
// record whose checksum differs from it is torn too.
RecordState CheckRecord(std::span<const std::uint8_t> slot, std::uint64_t sequence,
                        std::string_view run_id, std::uint64_t expected_checksum);

}  // namespace durprobe::probes
