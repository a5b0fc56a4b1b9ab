#include "render/fsync_error_rows.h"

#include <fmt/format.h>

#include "text/units.h"

namespace durprobe::render {
namespace {

// The size cell: the file's size after the failure, and after the remount when it differs.
std::string SizeCell(const probes::FsyncErrorOutcome& o) {
  if (o.size_after_remount == 0 || o.size_after_remount == o.size) return text::FormatBytes(o.size);
  return fmt::format("{} -> {}", text::FormatBytes(o.size),
                     text::FormatBytes(o.size_after_remount));
}

}  // namespace

const std::vector<std::string>& FsyncErrorHeads() {
  static const std::vector<std::string> heads = {
      "fault",   "sync",    "write", "1st sync", "retry",   "2nd fd", "cached",
      "evicted", "on disk", "size",  "fs after", "remount", "a retry"};
  return heads;
}

std::vector<std::string> FsyncErrorCells(const probes::FsyncErrorOutcome& o) {
  std::vector<std::string> cells = {std::string(probes::NameOf(o.fault)), o.sync};
  if (o.status != probes::Outcome::kOk) {
    cells.push_back(fmt::format("{}: {}", probes::NameOf(o.status), o.reason));
    cells.resize(FsyncErrorHeads().size());
    return cells;
  }
  for (std::string c :
       {o.write, o.first_sync, o.second_sync, o.other_sync, std::string(probes::NameOf(o.cached)),
        std::string(probes::NameOf(o.evicted)), std::string(probes::NameOf(o.remounted)),
        SizeCell(o), std::string(probes::NameOf(o.state)),
        std::string(o.remount_ok ? "ok" : "failed"),
        o.retry.empty() ? std::string("-") : o.retry}) {
    cells.push_back(std::move(c));
  }
  return cells;
}

const std::vector<std::string>& SqliteSyncFailureHeads() {
  static const std::vector<std::string> heads = {"journal", "COMMIT returned", "reopened",
                                                 "rows",    "after remount",   "rows"};
  return heads;
}

std::vector<std::string> SqliteSyncFailureCells(const probes::SqliteSyncFailure& f) {
  if (f.status != probes::Outcome::kOk) {
    std::vector<std::string> cells = {f.journal_mode,
                                      fmt::format("{}: {}", probes::NameOf(f.status), f.reason)};
    cells.resize(SqliteSyncFailureHeads().size());
    return cells;
  }
  return {f.journal_mode, f.commit,
          f.reopened,     std::to_string(f.rows_reopened),
          f.remounted,    std::to_string(f.rows_remounted)};
}

}  // namespace durprobe::render
