// `powercut verify --mode sqlite`'s read-back that never lets SQLite touch the run's directory
// (docs/powercut.md, "Whose run it is"): records.db and its rollback journal or WAL, opened and
// checked by the caller, are copied through those descriptors into a private 0700 directory of
// durprobe's own; a rollback journal that names a super-journal is refused (durprobe's writer
// never makes one: SQLite would open, and may delete, the file it names); the copy is opened
// through a VFS that refuses every path outside the private directory. SQLite recovers the copy
// (rolls its journal back, replays its WAL), then ReadBackSqliteRecords reads it. The private
// directory is removed afterwards.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "platform/owned_files.h"
#include "platform/platform.h"
#include "probes/powercut_protocol.h"
#include "sqlite_bench/powercut_sqlite.h"

namespace durprobe::sqlite_bench {

// Opens a file of the run's directory by name, checked; an empty handle when it is not there.
using OpenRunFile = std::function<Result<platform::OwnedHandle>(const std::string& name)>;

Result<SqliteReadBack> ReadBackSqliteCopy(platform::Platform& platform, platform::OwnedHandle db,
                                          const probes::WitnessRun& run,
                                          const OpenRunFile& open_file);

// Whether a rollback journal's last bytes are a super-journal record (its name, length,
// checksum and the journal magic), given its final 16 bytes (or fewer for a shorter file).
bool NamesSuperJournal(std::span<const std::uint8_t> tail16);

}  // namespace durprobe::sqlite_bench
