// The names a power-cut run keeps under PATH (docs/powercut.md), shared by write, verify and the
// run's files: below all three, so none of them includes another for a name.
#pragma once

#include <string_view>

namespace durprobe::run {

inline constexpr std::string_view kPowercutDirPrefix = ".durprobe-powercut-";
inline constexpr char kPowercutRecordsFile[] = "records";
// The machine's boot id when the run started, synced before the first record (verify compares).
inline constexpr char kPowercutBootIdFile[] = "boot-id";

}  // namespace durprobe::run
