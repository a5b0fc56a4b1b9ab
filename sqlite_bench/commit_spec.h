// What one commit-matrix configuration is: journal mode, synchronous level, rows per commit,
// statement handling, payload size (and, where the OS has F_FULLFSYNC, the fullfsync pragmas).
// Names are SQLite's own upper-case spellings; the maps are lower-case for the command line.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace durprobe::sqlite_bench {

enum class JournalMode { kDelete, kTruncate, kPersist, kMemory, kWal, kOff };
enum class Synchronous { kOff, kNormal, kFull, kExtra };
// kReused: one prepared INSERT, reset and rebound per row (as Python's executemany does).
// kPerRow: the INSERT prepared and finalized for every row (an execute loop without a statement
// cache).
enum class StatementMode { kReused, kPerRow };

std::string_view NameOf(JournalMode m);                        // "DELETE", ...
std::string_view NameOf(Synchronous s);                        // "OFF", ...
std::string_view NameOf(StatementMode s);                      // "reused", "per_row"
const std::map<std::string, JournalMode>& JournalModeNames();  // "delete" -> kDelete
const std::map<std::string, Synchronous>& SynchronousNames();
const std::map<std::string, StatementMode>& StatementModeNames();

struct CommitConfig {
  JournalMode journal = JournalMode::kDelete;
  Synchronous sync = Synchronous::kFull;
  std::uint32_t rows_per_commit = 1;  // 1: autocommit single-row INSERT; N: BEGIN, N rows, COMMIT
  StatementMode statement = StatementMode::kReused;
  std::uint32_t payload_bytes = 100;
  // macOS only: PRAGMA fullfsync and checkpoint_fullfsync (F_FULLFSYNC instead of fsync).
  // nullopt: not a dimension on this OS (the pragmas do nothing on Linux).
  std::optional<bool> fullfsync;
};

// "WAL/FULL x1 reused 100B" style label for messages.
std::string Label(const CommitConfig& c);

struct MatrixSelection {
  std::vector<JournalMode> journals;  // empty: DELETE, WAL (or all with `all`)
  std::vector<Synchronous> syncs;     // empty: FULL, NORMAL, OFF (or all with `all`)
  bool all = false;
  std::vector<std::uint32_t> batches{1};  // rows per commit
  std::vector<StatementMode> statements{StatementMode::kReused};
  std::uint32_t payload_bytes = 100;
  bool fullfsync_dimension = false;  // add fullfsync=ON rows for FULL/EXTRA (macOS)
};

// The configurations of a selection, journal mode outermost, in a stable order.
std::vector<CommitConfig> ExpandMatrix(const MatrixSelection& sel);

// What a configuration may lose on power loss or an OS crash, in order of what it loses (the
// order is the rank: kNone < kLastCommit < ...). SQLite documents the first four; kNotDurable is
// the path's, not SQLite's (analysis/durability_risk.h): its syncs do not reach stable storage.
enum class RiskLevel { kNone, kLastCommit, kRecentCommits, kCorruption, kNotDurable };
// The last enumerator, up to which a table per RiskLevel is counted: one added after it moves
// this.
inline constexpr RiskLevel kLastRiskLevel = RiskLevel::kNotDurable;
// "none", "last_commit", "recent_commits", "corruption", "not_durable"
std::string_view NameOf(RiskLevel level);

// What SQLite documents a configuration risks on power loss or an OS crash.
struct Risk {
  RiskLevel level = RiskLevel::kNone;  // never kNotDurable
  std::string_view summary;            // one short phrase for the table
};
Risk PowerLossRisk(JournalMode journal, Synchronous sync);

}  // namespace durprobe::sqlite_bench
