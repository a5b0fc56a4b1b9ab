// What a power cut's image recovers to: the image written as plain files into a directory, opened
// there with plain SQLite (the default VFS, as an application would after the reboot), checked
// with PRAGMA integrity_check and read back row by row against the rows the workload inserted.
#pragma once

#include <cstdint>
#include <string>

#include "platform/platform.h"
#include "sqlite_bench/crash_disk.h"

namespace durprobe::sqlite_bench {

struct RecoveryCheck {
  bool corrupt = false;
  std::string problem;                // why corrupt
  std::uint64_t commits_present = 0;  // whole commits recovered (rows / rows_per_commit)
};

// Opens the database at path with plain SQLite (its recovery runs: a hot journal rolls back, a
// WAL is replayed), runs PRAGMA integrity_check and reads the rows back: ids 1..n in order with
// FillPayload's payloads, n a whole number of commits. Corrupt, with the reason, otherwise.
RecoveryCheck CheckRecoveredDb(const std::string& path, std::uint32_t rows_per_commit,
                               std::uint32_t payload_bytes);

// Writes image into dir (created, then removed with everything SQLite's recovery left in it) and
// checks crash.db there. An error Status only when the directory could not be written or removed.
Result<RecoveryCheck> RecoverImage(platform::Platform& platform, const std::string& dir,
                                   const DiskImage& image, std::uint32_t rows_per_commit,
                                   std::uint32_t payload_bytes);

// FNV-1a 64 over names and contents: equal images hash equal (distinct crash states).
std::uint64_t HashImage(const DiskImage& image);

}  // namespace durprobe::sqlite_bench
