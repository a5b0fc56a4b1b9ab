// The postgres-wal preset's pg_test_fsync comparisons: which probes it measures, the
// wal_sync_method it recommends (a check result) and the one table that shows them all.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "model/report.h"
#include "probes/probe_spec.h"

namespace durprobe::gate {

// One cell of the comparison table: a probe and where it sits.
struct WalSyncCell {
  std::string row;     // "1 x 8 KiB", "2 x 8 KiB", "16 KiB as 4 x 4 KiB"
  std::string method;  // wal_sync_method: open_datasync, fdatasync, fsync, open_sync
  probes::ProbeSpec spec;
};

// pg_test_fsync's comparisons, overwriting a preallocated file as PostgreSQL writes its WAL:
// - one 8 KiB write, then the sync, per wal_sync_method (open_datasync is durprobe's odsync,
//   open_sync its osync, where the write is the sync);
// - two 8 KiB writes, then one sync, per wal_sync_method (each write syncs itself with the
//   open_* methods);
// - 16 KiB written as 1 x 16 KiB, 2 x 8 KiB and 4 x 4 KiB open_sync writes.
// In table order (rows, then methods); the 2 x 8 KiB open_sync probe appears in two rows.
const std::vector<WalSyncCell>& WalSyncCells();
// The distinct probes of WalSyncCells(), in table order.
std::vector<probes::ProbeSpec> WalSyncMethodSpecs();

// pg_test_fsync's own table, as `durprobe probe --pg` measures it (docs/probes.md): its sections
// ("one 8kB write", "two 8kB writes", open_sync's write sizes down to 16 x 1 KiB, and unsynced 8
// KiB writes), its method names in its order, and its O_DIRECT for the open_* methods
// (odirect_dsync, odirect_sync). cell.row names the section, cell.method the line.
const std::vector<WalSyncCell>& PgTestFsyncCells();
std::vector<probes::ProbeSpec> PgTestFsyncSpecs();

// A change from PostgreSQL's default (fdatasync on Linux) is recommended only when the fastest
// method beats it by this much: on a disk whose state changes, pgbench's tps by method differed
// by less than the same method's from one round to the next (docs/accuracy.md).
inline constexpr double kWalSyncClearMargin = 1.10;

// The methods ranked by their time for one 1 x 8 KiB and one 2 x 8 KiB operation together (a WAL
// flush of one block and one of two), as a harmonic-mean rate over the two; a method missing
// either probe is not ranked.
struct WalSyncChoice {
  struct Ranked {
    std::string method;
    double rate = 0;  // ops/s
  };
  std::vector<Ranked> ranked;  // fastest first
  // The method to use: the fastest, or fdatasync (the default) when the fastest beats it by
  // less than kWalSyncClearMargin. Empty when fewer than two methods are ranked.
  std::string method;
  bool kept_default = false;  // fdatasync chosen although another was (slightly) faster
};
WalSyncChoice ChooseWalSyncMethod(const model::Target& target);

// "postgres_wal_sync_method": ChooseWalSyncMethod's choice; measured is the chosen method's rate
// and threshold the runner-up's (a winner) or the fastest's over kWalSyncClearMargin (the default
// kept), so measured >= threshold holds and the message states the margin. An error when fewer than
// two methods are ranked.
model::CheckResult RecommendWalSyncMethod(const model::Target& target);

// The comparisons as one table with the recommendation under it, for every target a
// postgres_wal_sync_method check was evaluated on; nothing when there is none.
void PrintWalSyncTables(const model::Report& report, std::ostream& out);

}  // namespace durprobe::gate
