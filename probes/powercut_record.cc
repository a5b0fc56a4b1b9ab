#include "probes/powercut_record.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace durprobe::probes {
namespace {

constexpr std::string_view kRecordMagic = "DPPCREC1";
constexpr std::size_t kChecksumAt = 40;

// Little-endian whatever the host (the compiler makes these one load or store on x86 and ARM).
void PutU64(std::uint8_t* at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) at[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
void PutU32(std::uint8_t* at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) at[i] = static_cast<std::uint8_t>(v >> (8 * i));
}
std::uint64_t GetU64(const std::uint8_t* at) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | at[i];
  return v;
}
std::uint32_t GetU32(const std::uint8_t* at) {
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | at[i];
  return v;
}

// The checksum of a record: FNV-1a over its 64-bit words (a record is a multiple of 512 bytes),
// the checksum field's word left out, eight times fewer steps than over its bytes.
std::uint64_t RecordChecksum(std::span<const std::uint8_t> r) {
  std::uint64_t h = kFnvOffset;
  for (std::size_t at = 0; at + 8 <= r.size(); at += 8) {
    if (at == kChecksumAt) continue;
    h ^= GetU64(r.data() + at);
    h *= 0x100000001b3ull;
    h ^= h >> 32;
  }
  return h;
}

// Whether record (encoded here) is the one the witness holds: its checksum is the witness's.
bool OldRecordAcknowledged(std::span<const std::uint8_t> record, std::uint64_t expected) {
  return GetU64(record.data() + kChecksumAt) == expected;
}

}  // namespace

Status CheckRecordSize(std::uint64_t bytes) {
  if (bytes < 512 || bytes > (1u << 20) || bytes % 512 != 0) {
    return Status::OutOfRange(fmt::format(
        "--record-size {}: a record is a multiple of 512 bytes from 512 to 1MiB", bytes));
  }
  return Status::Ok();
}

Status CheckRunId(std::string_view run_id) {
  const bool hex = std::all_of(run_id.begin(), run_id.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  });
  if (run_id.size() != kRunIdChars || !hex) {
    return Status::InvalidArgument(
        fmt::format("run id '{}': a run id is 16 lower-case hexadecimal digits", run_id));
  }
  return Status::Ok();
}

std::uint64_t Fnv1a64(std::span<const std::uint8_t> bytes, std::uint64_t hash) {
  for (std::uint8_t b : bytes) {
    hash ^= b;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::uint64_t EncodeRecord(std::uint64_t sequence, std::string_view run_id,
                           std::span<std::uint8_t> out) {
  std::uint8_t* p = out.data();
  std::memcpy(p, kRecordMagic.data(), 8);
  PutU64(p + 8, sequence);
  std::memset(p + 16, 0, kRunIdChars);
  std::memcpy(p + 16, run_id.data(), std::min(run_id.size(), kRunIdChars));
  PutU32(p + 32, static_cast<std::uint32_t>(out.size()));
  PutU32(p + 36, 0);
  PutU64(p + kChecksumAt, 0);
  // The padding: a xorshift stream seeded from the run and the sequence, never all zeros.
  std::uint64_t x = Fnv1a64(out.subspan(0, 32)) | 1;
  for (std::size_t at = kRecordHeaderBytes; at + 8 <= out.size(); at += 8) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    PutU64(p + at, x);
  }
  const std::uint64_t sum = RecordChecksum(out);
  PutU64(p + kChecksumAt, sum);
  return sum;
}

std::string_view NameOf(RecordState s) {
  switch (s) {
    case RecordState::kPresent:
      return "present";
    case RecordState::kMissing:
      return "missing";
    case RecordState::kTorn:
      return "torn";
    case RecordState::kInFlight:
      return "in_flight";
  }
  return "torn";
}

RecordState CheckRecord(std::span<const std::uint8_t> slot, std::uint64_t sequence,
                        std::string_view run_id, std::uint64_t expected_checksum) {
  if (std::all_of(slot.begin(), slot.end(), [](std::uint8_t b) { return b == 0; })) {
    return RecordState::kMissing;
  }
  if (slot.size() < kRecordHeaderBytes) return RecordState::kTorn;
  const std::uint8_t* p = slot.data();
  const bool header = std::memcmp(p, kRecordMagic.data(), 8) == 0 && GetU64(p + 8) == sequence &&
                      run_id.size() == kRunIdChars &&
                      std::memcmp(p + 16, run_id.data(), kRunIdChars) == 0 &&
                      GetU32(p + 32) == slot.size();
  const std::uint64_t stored = GetU64(p + kChecksumAt);
  const bool whole = stored == RecordChecksum(slot);
  if (!header) {
    const bool earlier = whole && std::memcmp(p, kRecordMagic.data(), 8) == 0 &&
                         GetU64(p + 8) < sequence && run_id.size() == kRunIdChars &&
                         std::memcmp(p + 16, run_id.data(), kRunIdChars) == 0;
    return earlier ? RecordState::kMissing : RecordState::kTorn;
  }
  if (stored != RecordChecksum(slot) || stored != expected_checksum) return RecordState::kTorn;
  return RecordState::kPresent;
}

std::optional<std::uint64_t> HeaderSequence(std::span<const std::uint8_t> slot,
                                            std::string_view run_id) {
  if (slot.size() < kRecordHeaderBytes || run_id.size() != kRunIdChars) return std::nullopt;
  const std::uint8_t* p = slot.data();
  if (std::memcmp(p, kRecordMagic.data(), 8) != 0) return std::nullopt;
  if (std::memcmp(p + 16, run_id.data(), kRunIdChars) != 0) return std::nullopt;
  return GetU64(p + 8);
}

RecordState CheckSlot(std::span<const std::uint8_t> slot, std::uint64_t sequence,
                      std::string_view run_id, std::uint64_t expected_checksum, std::uint64_t slots,
                      std::uint64_t highest_acked) {
  const RecordState first = CheckRecord(slot, sequence, run_id, expected_checksum);
  if (first == RecordState::kPresent || slots == 0 || slot.size() % kSectorBytes != 0 ||
      slot.size() < kRecordHeaderBytes) {
    return first;
  }
  // The later record this slot may hold: the one its header names (a sector 0 from the new
  // write), else the next one the writer puts here.
  std::uint64_t later = sequence + slots;
  if (std::optional<std::uint64_t> named = HeaderSequence(slot, run_id);
      named && *named > sequence && *named % slots == sequence % slots) {
    later = *named;
  }
  if (later <= highest_acked || later < sequence) return first;  // acknowledged, or wrapped
  std::vector<std::uint8_t> old_record(slot.size()), new_record(slot.size());
  EncodeRecord(sequence, run_id, old_record);
  EncodeRecord(later, run_id, new_record);
  bool any_new = false;
  for (std::size_t at = 0; at < slot.size(); at += kSectorBytes) {
    const std::uint8_t* got = slot.data() + at;
    if (std::memcmp(got, new_record.data() + at, kSectorBytes) == 0) {
      // A sector the two records share (none do: each sector holds its own padding) counts old.
      if (std::memcmp(got, old_record.data() + at, kSectorBytes) != 0) any_new = true;
      continue;
    }
    if (std::memcmp(got, old_record.data() + at, kSectorBytes) != 0) return first;
  }
  // Every sector old or new, at least one new: a record the witness never heard of, under way.
  // (Every sector old would be the acknowledged record whole, present already; a checksum the
  // witness holds that differs from the old record's own leaves it torn.)
  return any_new && OldRecordAcknowledged(old_record, expected_checksum) ? RecordState::kInFlight
                                                                         : first;
}

}  // namespace durprobe::probes
