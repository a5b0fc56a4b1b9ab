#include "run/scratch_need.h"

#include <fmt/format.h>

#include <algorithm>

#include "platform/fs_kinds.h"
#include "platform/fs_magic.h"
#include "sqlite_bench/kv_table.h"
#include "text/units.h"

namespace durprobe::run {

std::uint64_t ProbeScratchBytes(const std::vector<probes::ProbeSpec>& specs,
                                const probes::OpOptions& options) {
  std::uint64_t most = 0;
  for (const probes::ProbeSpec& spec : specs) {
    bool numbered_files =
        spec.pattern == probes::Pattern::kCreate || spec.pattern == probes::Pattern::kRename;
    // The create and rename probes make small files, counted in the slack.
    std::uint64_t bytes = numbered_files ? 2 * std::max<std::uint64_t>(spec.write_size, 4096)
                                         : std::max(options.file_size, probes::BytesPerOp(spec));
    most = std::max(most, bytes);
  }
  return most;
}

std::uint64_t MatrixScratchBytes(const sqlite_bench::MatrixPlan& plan) {
  const sqlite_bench::CommitOptions& o = plan.options;
  // Every configuration's database is open at once (their repetitions are interleaved).
  std::uint64_t all = 0;
  for (const sqlite_bench::CommitConfig& config : plan.configs) {
    std::uint64_t commits = o.fixed_commits > 0 ? o.warmup_commits + o.fixed_commits * o.repetitions
                                                : o.min_commits * o.repetitions;
    std::uint64_t rows = std::min(o.max_rows, commits * config.rows_per_commit);
    all += 2 * rows * (config.payload_bytes + kRowOverheadBytes);
  }
  return all;
}

std::uint64_t WorkloadScratchBytes(const sqlite_bench::WorkloadPlan& plan) {
  if (plan.workloads.empty()) return 0;
  const sqlite_bench::WorkloadOptions& o = plan.options;
  std::uint64_t row = sqlite_bench::kKvValueBytes + kRowOverheadBytes;
  std::uint64_t wal_rows =
      std::uint64_t{o.wal_rounds} * o.wal_commits_per_round * o.wal_rows_per_commit;
  return 2 * (o.kv_rows + wal_rows) * row;
}

std::uint64_t ScratchNeedBytes(const ScratchParts& parts) {
  std::uint64_t need = kScratchSlackBytes;
  if (parts.probe_specs) need += ProbeScratchBytes(*parts.probe_specs, parts.op_options);
  if (parts.matrix) need += MatrixScratchBytes(*parts.matrix);
  if (parts.workloads) need += WorkloadScratchBytes(*parts.workloads);
  need += parts.concurrency_bytes;
  need += parts.crashtest_bytes;
  return need;
}

std::string NotEnoughSpaceMessage(const std::string& path, std::uint64_t need, std::uint64_t free) {
  if (need <= free) return {};
  return fmt::format(
      "not enough free space in {}: this run needs about {} of scratch and {} is free (free some "
      "space, or ask for less: a smaller --file-size, fewer --commits)",
      path, report::FormatBytesAs(need, need), report::FormatBytesAs(free, need));
}

Status CheckFreeSpace(platform::Platform& platform, const std::string& path, std::uint64_t need) {
  if (Result<platform::FsStat> fs = platform.StatFs(path); fs.ok()) {
    std::string_view type = platform::FsTypeOfMagic(fs->magic);
    if (platform::IsKernelStateFs(type)) {
      return Status::InvalidArgument(fmt::format(
          "{} is on {}, a view of kernel state with no storage under it: not a place to measure "
          "(name a directory on the filesystem whose durability you want to know)",
          path, type));
    }
  }
  Result<std::uint64_t> free = platform.FreeBytes(path);
  if (!free.ok()) return Status::Ok();
  std::string message = NotEnoughSpaceMessage(path, need, *free);
  return message.empty() ? Status::Ok() : Status::InvalidArgument(message);
}

std::string SqlitePathTooLongMessage(const std::string& target, const std::string& scratch_dir,
                                     std::size_t limit) {
  std::size_t longest = scratch_dir.size() + kSqliteNameBytes;
  if (limit == 0 || longest < limit) return {};
  return fmt::format(
      "{}: the path is too long for SQLite: its files would have names of up to {} bytes and "
      "SQLite opens none over {} (measure a shorter path to the same place, such as a bind "
      "mount; a symlink does not help, SQLite resolves it), or leave SQLite out (durprobe probe)",
      target, longest, limit);
}

}  // namespace durprobe::run
