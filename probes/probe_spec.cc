#include "probes/probe_spec.h"

#include <fmt/format.h>

#include "probes/primitive_ops.h"

namespace durprobe::probes {

const std::map<std::string, Primitive>& PrimitiveNames() {
  static const std::map<std::string, Primitive> names = [] {
    std::map<std::string, Primitive> from_table;
    for (const PrimitiveOps& row : PrimitiveTable()) {
      from_table.emplace(std::string(row.name), row.primitive);
    }
    return from_table;
  }();
  return names;
}

const std::map<std::string, Pattern>& PatternNames() {
  static const std::map<std::string, Pattern> names = {
      {"overwrite", Pattern::kOverwrite},
      {"append", Pattern::kAppend},
      {"preallocated", Pattern::kPreallocated},
      {"create", Pattern::kCreate},
      {"rename", Pattern::kRename},
      {"write_sync_close", Pattern::kWriteSyncClose},
      {"write_close_sync", Pattern::kWriteCloseSync},
  };
  return names;
}

namespace {
template <typename Enum>
std::string_view Lookup(const std::map<std::string, Enum>& names, Enum value) {
  for (const auto& [name, v] : names) {
    if (v == value) return name;
  }
  return "unknown";
}
}  // namespace

std::string_view NameOf(Primitive p) { return OpsOf(p).name; }
std::string_view NameOf(Pattern p) { return Lookup(PatternNames(), p); }

Status Validate(const ProbeSpec& spec) {
  bool dir_pattern = spec.pattern == Pattern::kCreate || spec.pattern == Pattern::kRename;
  bool cross = spec.pattern == Pattern::kWriteSyncClose || spec.pattern == Pattern::kWriteCloseSync;
  if (spec.primitive == Primitive::kDirFsync && !dir_pattern) {
    return Status::InvalidArgument(
        fmt::format("dir_fsync takes the patterns create or rename, not {}", NameOf(spec.pattern)));
  }
  if (spec.primitive != Primitive::kDirFsync && dir_pattern) {
    return Status::InvalidArgument(fmt::format("pattern {} goes with dir_fsync only, not {}",
                                               NameOf(spec.pattern), NameOf(spec.primitive)));
  }
  if (cross && spec.primitive != Primitive::kFsync && spec.primitive != Primitive::kFdatasync) {
    return Status::InvalidArgument(fmt::format("pattern {} goes with fsync or fdatasync, not {}",
                                               NameOf(spec.pattern), NameOf(spec.primitive)));
  }
  if (spec.writes_per_op == 0 || spec.writes_per_op > kMaxWritesPerOp) {
    return Status::OutOfRange(fmt::format("writes per operation {} is outside 1 .. {}",
                                          spec.writes_per_op, kMaxWritesPerOp));
  }
  if (spec.paced_per_sec > kMaxPacedPerSec) {
    return Status::OutOfRange(fmt::format("a pace of {} operations a second is outside 0 .. {}",
                                          spec.paced_per_sec, kMaxPacedPerSec));
  }
  if (spec.work_us > kMaxWorkUs) {
    return Status::OutOfRange(fmt::format("work of {} us between operations is outside 0 .. {}",
                                          spec.work_us, kMaxWorkUs));
  }
  if (spec.work_round_trips > kMaxWorkRoundTrips) {
    return Status::OutOfRange(fmt::format("{} round trips of work is outside 0 .. {}",
                                          spec.work_round_trips, kMaxWorkRoundTrips));
  }
  if (spec.work_round_trips > 0 && spec.work_us == 0) {
    return Status::InvalidArgument("round trips of work need the work's time (work_us)");
  }
  if (spec.work_us > 0 && spec.paced_per_sec > 0) {
    return Status::InvalidArgument("a probe is paced or does work between operations, not both");
  }
  if (spec.writes_per_op > 1 && (dir_pattern || cross)) {
    return Status::InvalidArgument(fmt::format("pattern {} makes one write per operation, not {}",
                                               NameOf(spec.pattern), spec.writes_per_op));
  }
  bool sized = spec.primitive != Primitive::kDirFsync;
  if (sized && (spec.write_size == 0 || spec.write_size > (64u << 20))) {
    return Status::OutOfRange(
        fmt::format("write size {} is outside 1 byte .. 64 MiB", spec.write_size));
  }
  return Status::Ok();
}

std::string_view CaveatOf(Primitive p) { return OpsOf(p).caveat; }

}  // namespace durprobe::probes
