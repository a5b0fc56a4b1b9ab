#include "analysis/watch_sqlite.h"

#include <fmt/format.h>

#include <algorithm>

namespace durprobe::analysis {
namespace {

struct Counts {
  std::uint64_t transactions = 0;  // rollback: database syncs; WAL: commit syncs
  std::uint64_t journal_before_commit = 0;
  std::uint64_t journal_after_commit = 0;  // TRUNCATE/PERSIST's sync after the database's
  std::uint64_t directory = 0;
  std::uint64_t wal_commits = 0;
  std::uint64_t wal_checkpoints = 0;
  std::uint64_t wal_headers = 0;
  std::uint64_t database = 0;
  std::uint64_t total = 0;
  std::vector<std::uint64_t> transaction_bytes;  // pages each transaction wrote
  std::vector<double> commit_at;                 // when each transaction's commit sync returned
};

bool IsWal(const std::vector<SqliteFileSync>& syncs, const SqliteUnsynced& unsynced) {
  // The last journal or WAL activity decides: a database made in rollback mode and switched to
  // WAL (PRAGMA journal_mode=WAL) syncs its journal first.
  for (auto it = syncs.rbegin(); it != syncs.rend(); ++it) {
    if (it->kind == model::WatchFileKind::kSqliteWal) return true;
    if (it->kind == model::WatchFileKind::kSqliteJournal) return unsynced.wal > 0;
  }
  return unsynced.wal > 0;
}

Counts CountRollback(const std::vector<SqliteFileSync>& syncs) {
  Counts c;
  enum class Phase { kIdle, kJournalSynced, kCommitted } phase = Phase::kIdle;
  std::uint64_t content_syncs = 0;  // journal syncs that start a transaction
  std::uint64_t header_syncs = 0;   // FULL's second sync, of the header's record count
  for (const SqliteFileSync& s : syncs) {
    ++c.total;
    switch (s.kind) {
      case model::WatchFileKind::kSqliteJournal:
        if (s.bytes >= kJournalContentBytes) {
          ++content_syncs;
          phase = Phase::kJournalSynced;
        } else if (phase == Phase::kJournalSynced) {
          ++header_syncs;
        } else if (phase == Phase::kCommitted) {
          ++c.journal_after_commit;
        }
        break;
      case model::WatchFileKind::kSqliteDatabase:
        ++c.database;
        ++c.transactions;
        c.transaction_bytes.push_back(s.bytes);
        c.commit_at.push_back(s.at_seconds);
        phase = Phase::kCommitted;
        break;
      case model::WatchFileKind::kDirectory:
        ++c.directory;
        break;
      default:
        break;
    }
  }
  // Per transaction that synced its journal: 2 is FULL (the header's count rewritten and synced
  // again), 1 is NORMAL.
  if (content_syncs > 0) {
    c.journal_before_commit = (content_syncs + header_syncs + content_syncs / 2) / content_syncs;
  }
  return c;
}

Counts CountWal(const std::vector<SqliteFileSync>& syncs) {
  Counts c;
  for (std::size_t i = 0; i < syncs.size(); ++i) {
    const SqliteFileSync& s = syncs[i];
    ++c.total;
    if (s.kind == model::WatchFileKind::kSqliteDatabase) ++c.database;
    if (s.kind == model::WatchFileKind::kDirectory) ++c.directory;
    if (s.kind != model::WatchFileKind::kSqliteWal) continue;
    if (s.bytes == kWalHeaderBytes) {
      ++c.wal_headers;
    } else if (i + 1 < syncs.size() && syncs[i + 1].kind == model::WatchFileKind::kSqliteDatabase) {
      ++c.wal_checkpoints;
    } else {
      ++c.wal_commits;
      c.transaction_bytes.push_back(s.bytes);
      c.commit_at.push_back(s.at_seconds);
    }
  }
  c.transactions = c.wal_commits;
  return c;
}

std::uint64_t MedianOf(std::vector<std::uint64_t> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

void SetTransactions(model::WatchSqlite& out, const Counts& c, double seconds) {
  out.transactions = c.transactions;
  double span = c.commit_at.size() >= 2 ? c.commit_at.back() - c.commit_at.front() : 0.0;
  if (span > 0) {
    out.transactions_per_second = static_cast<double>(c.commit_at.size() - 1) / span;
  } else if (seconds > 0) {
    out.transactions_per_second = static_cast<double>(c.transactions) / seconds;
  }
  if (c.transactions > 0) {
    out.syncs_per_transaction = static_cast<double>(c.total) / static_cast<double>(c.transactions);
    std::uint64_t median = MedianOf(c.transaction_bytes);
    out.database_bytes_per_transaction = static_cast<double>(median);
    out.small_transactions =
        c.transactions >= kMinTransactionsForSize && median <= kSmallTransactionBytes;
  }
}

}  // namespace

model::WatchSqlite InferSqlite(std::uint32_t pid, const std::string& database,
                               const std::vector<SqliteFileSync>& syncs,
                               const SqliteUnsynced& unsynced, double seconds) {
  model::WatchSqlite out;
  out.pid = pid;
  out.database = database;
  bool wal = IsWal(syncs, unsynced);
  bool journal_seen =
      unsynced.journal > 0 || std::any_of(syncs.begin(), syncs.end(), [](const SqliteFileSync& s) {
        return s.kind == model::WatchFileKind::kSqliteJournal;
      });
  if (wal) {
    out.journal_mode = model::SqliteJournalSeen::kWal;
    Counts c = CountWal(syncs);
    if (c.wal_commits > 0) {
      out.synchronous = model::SqliteSyncSeen::kFull;
      SetTransactions(out, c, seconds);
      out.evidence =
          fmt::format("the WAL synced at each of {} commits, {} checkpoints (WAL then database)",
                      c.wal_commits, c.wal_checkpoints);
    } else if (c.wal_checkpoints > 0) {
      out.synchronous = model::SqliteSyncSeen::kNormal;
      out.durable = false;  // a commit returns before anything syncs it
      out.evidence = fmt::format(
          "commits write the WAL without a sync; {} checkpoints synced the WAL then the database "
          "(a power cut loses the commits since the last checkpoint, never the database)",
          c.wal_checkpoints);
    } else if (unsynced.database > 0) {
      out.synchronous = model::SqliteSyncSeen::kOff;
      out.durable = false;
      out.evidence =
          "the WAL and the database were written (a checkpoint) and nothing was synced: "
          "synchronous=OFF, not durable";
    } else {
      out.evidence =
          "the WAL was written and not synced, and no checkpoint ran in the window: NORMAL or "
          "OFF (a checkpoint tells them apart)";
    }
    return out;
  }
  if (!journal_seen && syncs.empty()) {
    out.evidence =
        unsynced.database > 0 ? "the database was written and never synced" : "nothing was written";
    if (unsynced.database > 0) {
      out.synchronous = model::SqliteSyncSeen::kOff;
      out.durable = false;
    }
    return out;
  }
  Counts c = CountRollback(syncs);
  out.journal_mode = c.journal_after_commit > 0 ? model::SqliteJournalSeen::kTruncateOrPersist
                                                : model::SqliteJournalSeen::kDelete;
  if (c.transactions == 0) {
    if (unsynced.journal > 0 || unsynced.database > 0) {
      out.synchronous = model::SqliteSyncSeen::kOff;
      out.durable = false;
      out.evidence =
          "the rollback journal and the database were written and nothing was synced: "
          "synchronous=OFF, not durable";
    } else {
      out.evidence = "no transaction reached the database's sync in the window";
    }
    return out;
  }
  out.synchronous =
      c.journal_before_commit >= 2 ? model::SqliteSyncSeen::kFull : model::SqliteSyncSeen::kNormal;
  SetTransactions(out, c, seconds);
  out.evidence = fmt::format(
      "{} transactions, each syncing the journal {} time{}{}, then the database{}", c.transactions,
      c.journal_before_commit, c.journal_before_commit == 1 ? "" : "s",
      c.directory >= c.transactions ? " and its directory" : "",
      c.journal_after_commit > 0 ? ", then the journal again (truncated or its header zeroed)"
                                 : "");
  return out;
}

std::string_view SqliteJournalSeenName(model::SqliteJournalSeen mode) {
  switch (mode) {
    case model::SqliteJournalSeen::kDelete:
      return "DELETE";
    case model::SqliteJournalSeen::kTruncateOrPersist:
      return "TRUNCATE or PERSIST";
    case model::SqliteJournalSeen::kWal:
      return "WAL";
    case model::SqliteJournalSeen::kUnknown:
      return "unknown";
  }
  return "unknown";
}

std::string_view SqliteSyncSeenName(model::SqliteSyncSeen level) {
  switch (level) {
    case model::SqliteSyncSeen::kFull:
      return "FULL";
    case model::SqliteSyncSeen::kNormal:
      return "NORMAL";
    case model::SqliteSyncSeen::kOff:
      return "OFF";
    case model::SqliteSyncSeen::kUnknown:
      return "unknown";
  }
  return "unknown";
}

}  // namespace durprobe::analysis
