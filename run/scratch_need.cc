#include "run/scratch_need.h"

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>

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
    // The warm-up's rows stay in the table (a batch sweep's x1000 warms up on 20,000 rows).
    std::uint64_t commits =
        o.warmup_commits +
        (o.fixed_commits > 0 ? o.fixed_commits * o.repetitions : o.min_commits * o.repetitions);
    // max_rows stops only the commits past the minimum (sqlite_bench/commit_run.cc).
    all += 2 * commits * config.rows_per_commit * (config.payload_bytes + kRowOverheadBytes);
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
  need += parts.crash_device_bytes;
  return need;
}

std::uint64_t CrashImageBytes(std::string_view fs_type, std::uint64_t image_bytes) {
  return fs_type == "xfs" ? std::max(image_bytes, kXfsMinImageBytes) : image_bytes;
}

std::uint64_t CrashDeviceScratchBytes(const Plan& plan, std::string_view own_fs_type) {
  std::uint64_t most = 0;
  if (plan.run_crashtest) {
    const sqlite_bench::CrashtestOptions& o = plan.crashtest.options;
    const std::string_view type = o.fs.type.empty() ? own_fs_type : std::string_view(o.fs.type);
    most = 3 * CrashImageBytes(type, o.image_bytes);
  }
  if (plan.run_faults) {
    const platform::CrashDeviceOptions device;
    if (plan.faults.filesystems.empty()) {
      most = std::max(most, 2 * CrashImageBytes(own_fs_type, device.image_bytes));
    }
    for (const platform::FsSpec& fs : plan.faults.filesystems) {
      most = std::max(most, 2 * CrashImageBytes(fs.type, device.image_bytes));
    }
  }
  return most;
}

namespace {

bool CommandIs(const Plan& plan, std::initializer_list<std::string_view> commands) {
  for (std::string_view c : commands) {
    if (plan.command == c) return true;
  }
  return false;
}

bool AnyXfs(const Plan& plan, std::string_view own_fs_type) {
  if (plan.run_crashtest) {
    const std::string& type = plan.crashtest.options.fs.type;
    if (type == "xfs" || (type.empty() && own_fs_type == "xfs")) return true;
  }
  if (plan.run_faults) {
    if (plan.faults.filesystems.empty()) return own_fs_type == "xfs";
    for (const platform::FsSpec& fs : plan.faults.filesystems) {
      if (fs.type == "xfs") return true;
    }
  }
  return false;
}

}  // namespace

std::string AskForLess(const Plan& plan, std::string_view own_fs_type) {
  std::vector<std::string> ways;
  if (plan.run_probes && CommandIs(plan, {"run", "probe", "compare"})) {
    ways.push_back("a smaller --file-size");
  }
  if (plan.run_concurrency && CommandIs(plan, {"run", "probe", "compare", "check"})) {
    ways.push_back("fewer --writers");
  }
  if (plan.run_sqlite && CommandIs(plan, {"run", "sqlite", "compare"})) {
    ways.push_back("fewer --commits or a smaller --batch");
  }
  if (plan.run_workloads && CommandIs(plan, {"sqlite"})) ways.push_back("fewer --workloads");
  if (AnyXfs(plan, own_fs_type) && CommandIs(plan, {"crashtest", "faults"})) {
    ways.push_back(fmt::format(
        "--fs without xfs (its image is {}, {} for the others)",
        text::FormatBytesAs(kXfsMinImageBytes, kXfsMinImageBytes),
        text::FormatBytesAs(platform::CrashDeviceOptions{}.image_bytes, kXfsMinImageBytes)));
  }
  std::string out;
  for (const std::string& w : ways) out += (out.empty() ? "" : ", ") + w;
  return out;
}

std::uint64_t RowsThatFit(const sqlite_bench::MatrixPlan& plan, std::uint64_t room) {
  const sqlite_bench::CommitOptions& o = plan.options;
  if (plan.configs.empty()) return o.max_rows;
  // What every configuration writes whatever its cap (its warm-up and minimum commits), then an
  // equal share each of the rest.
  const std::uint64_t sure = MatrixScratchBytes(plan);
  if (room <= sure) return 1;
  const std::uint64_t share = (room - sure) / plan.configs.size();
  std::uint64_t rows = o.max_rows;
  for (const sqlite_bench::CommitConfig& config : plan.configs) {
    const std::uint64_t timed = o.min_commits * o.repetitions * config.rows_per_commit;
    rows = std::min(rows, timed + share / (2 * (config.payload_bytes + kRowOverheadBytes)));
  }
  return std::max<std::uint64_t>(rows, 1);
}

std::string NotEnoughSpaceMessage(const std::string& path, std::uint64_t need, std::uint64_t free,
                                  const std::string& ask) {
  if (need <= free) return {};
  return fmt::format(
      "not enough free space in {}: this run needs about {} of scratch and {} is "
      "free (free some space{})",
      path, text::FormatBytesAs(need, need), text::FormatBytesAs(free, need),
      ask.empty() ? "" : ", or ask for less: " + ask);
}

Status CheckFreeSpace(platform::Platform& platform, const std::string& path, std::uint64_t need,
                      const std::string& ask) {
  if (Result<platform::FsStat> fs = platform.StatFs(path); fs.ok()) {
    std::string_view type = platform::FsTypeOfMagic(fs->magic);
    if (platform::IsKernelStateFs(type)) {
      return Status::InvalidArgument(fmt::format(
          "{} is on {}, a view of kernel state with no storage under it: not a place to measure "
          "(name a directory on the filesystem whose durability you want to know)",
          path, type));
    }
    if (std::find(fs->flags.begin(), fs->flags.end(), "rdonly") != fs->flags.end()) {
      return Status::InvalidArgument(fmt::format(
          "{} is on a read-only filesystem: durprobe measures by writing there (remount it "
          "read-write, or measure a writable directory on the same device)",
          path));
    }
  }
  Result<std::uint64_t> free = platform.FreeBytes(path);
  if (!free.ok()) return Status::Ok();
  std::string message = NotEnoughSpaceMessage(path, need, *free, ask);
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
