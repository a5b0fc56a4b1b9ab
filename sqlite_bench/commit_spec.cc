#include "sqlite_bench/commit_spec.h"

#include <fmt/format.h>

namespace durprobe::sqlite_bench {

std::string_view NameOf(JournalMode m) {
  switch (m) {
    case JournalMode::kDelete:
      return "DELETE";
    case JournalMode::kTruncate:
      return "TRUNCATE";
    case JournalMode::kPersist:
      return "PERSIST";
    case JournalMode::kMemory:
      return "MEMORY";
    case JournalMode::kWal:
      return "WAL";
    case JournalMode::kOff:
      return "OFF";
  }
  return "DELETE";
}

std::string_view NameOf(Synchronous s) {
  switch (s) {
    case Synchronous::kOff:
      return "OFF";
    case Synchronous::kNormal:
      return "NORMAL";
    case Synchronous::kFull:
      return "FULL";
    case Synchronous::kExtra:
      return "EXTRA";
  }
  return "FULL";
}

std::string_view NameOf(RiskLevel level) {
  switch (level) {
    case RiskLevel::kNone:
      return "none";
    case RiskLevel::kLastCommit:
      return "last_commit";
    case RiskLevel::kRecentCommits:
      return "recent_commits";
    case RiskLevel::kCorruption:
      return "corruption";
    case RiskLevel::kNotDurable:
      return "not_durable";
  }
  return "";
}

std::string_view NameOf(StatementMode s) {
  return s == StatementMode::kReused ? "reused" : "per_row";
}

const std::map<std::string, JournalMode>& JournalModeNames() {
  static const auto* names = new std::map<std::string, JournalMode>{
      {"delete", JournalMode::kDelete},   {"truncate", JournalMode::kTruncate},
      {"persist", JournalMode::kPersist}, {"memory", JournalMode::kMemory},
      {"wal", JournalMode::kWal},         {"off", JournalMode::kOff}};
  return *names;
}

const std::map<std::string, Synchronous>& SynchronousNames() {
  static const auto* names =
      new std::map<std::string, Synchronous>{{"off", Synchronous::kOff},
                                             {"normal", Synchronous::kNormal},
                                             {"full", Synchronous::kFull},
                                             {"extra", Synchronous::kExtra}};
  return *names;
}

const std::map<std::string, StatementMode>& StatementModeNames() {
  static const auto* names = new std::map<std::string, StatementMode>{
      {"reused", StatementMode::kReused}, {"per_row", StatementMode::kPerRow}};
  return *names;
}

std::string Label(const CommitConfig& c) {
  std::string label = fmt::format("{}/{} x{} {} {}B", NameOf(c.journal), NameOf(c.sync),
                                  c.rows_per_commit, NameOf(c.statement), c.payload_bytes);
  if (c.fullfsync) label += *c.fullfsync ? " fullfsync" : "";
  return label;
}

std::vector<CommitConfig> ExpandMatrix(const MatrixSelection& sel) {
  std::vector<JournalMode> journals = sel.journals;
  std::vector<Synchronous> syncs = sel.syncs;
  if (journals.empty()) {
    journals = sel.all ? std::vector<JournalMode>{JournalMode::kDelete,  JournalMode::kTruncate,
                                                  JournalMode::kPersist, JournalMode::kMemory,
                                                  JournalMode::kWal,     JournalMode::kOff}
                       : std::vector<JournalMode>{JournalMode::kDelete, JournalMode::kWal};
  }
  if (syncs.empty()) {
    syncs = sel.all ? std::vector<Synchronous>{Synchronous::kFull, Synchronous::kExtra,
                                               Synchronous::kNormal, Synchronous::kOff}
                    : std::vector<Synchronous>{Synchronous::kFull, Synchronous::kNormal,
                                               Synchronous::kOff};
  }
  std::vector<CommitConfig> out;
  for (JournalMode j : journals) {
    for (Synchronous s : syncs) {
      for (std::uint32_t batch : sel.batches) {
        for (StatementMode st : sel.statements) {
          CommitConfig c{j, s, batch, st, sel.payload_bytes, std::nullopt};
          if (sel.fullfsync_dimension) c.fullfsync = false;
          out.push_back(c);
          if (sel.fullfsync_dimension && (s == Synchronous::kFull || s == Synchronous::kExtra)) {
            c.fullfsync = true;
            out.push_back(c);
          }
        }
      }
    }
  }
  return out;
}

// https://www.sqlite.org/pragma.html#pragma_synchronous and https://www.sqlite.org/wal.html
Risk PowerLossRisk(JournalMode journal, Synchronous sync) {
  if (journal == JournalMode::kOff || journal == JournalMode::kMemory) {
    return {RiskLevel::kCorruption, "no rollback journal on disk: a crash mid-commit can corrupt"};
  }
  if (sync == Synchronous::kOff) return {RiskLevel::kCorruption, "corruption possible"};
  if (sync == Synchronous::kNormal) {
    if (journal == JournalMode::kWal)
      return {RiskLevel::kRecentCommits, "last commits may be lost, no corruption"};
    return {RiskLevel::kCorruption, "small chance of corruption (old filesystems)"};
  }
  // FULL in DELETE mode: the journal's unlink commits the transaction, and only EXTRA syncs the
  // directory after it, so a power cut right after COMMIT can bring the journal back and roll
  // the last commit back. TRUNCATE and PERSIST sync the journal's truncation or zeroed header.
  if (journal == JournalMode::kDelete && sync == Synchronous::kFull) {
    return {RiskLevel::kLastCommit, "last commit may roll back on power loss"};
  }
  return {RiskLevel::kNone, "nothing lost"};
}

}  // namespace durprobe::sqlite_bench
