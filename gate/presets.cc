// The check presets. Each number's source is in docs/provisioning.md; change both together.
#include "gate/presets.h"

#include <fmt/format.h>

namespace durprobe::gate {
namespace {

using probes::Pattern;
using probes::Primitive;

constexpr std::uint64_t kMs = 1'000'000;

Policy Etcd() {
  Policy p;
  p.source = "preset etcd";
  // What etcd 3.4 does to the disk under `etcdctl check perf` (docs/provisioning.md, measured
  // with strace): each WAL sync writes a median 1392 bytes, sequentially into a 64 MB segment
  // it preallocated (fallocate: every sync also converts written blocks), then fdatasync; its
  // bbolt backend meanwhile commits about 36 KB of pages with an fdatasync some 7 times a
  // second on the same disk. The community's fio job (2300 B into 22 MiB, nothing beside it)
  // sees neither the segment nor the backend's syncs.
  // It issues them at the load's commit rate, 150 a second for `--load=s`, not back to back: on
  // a virtual disk in its fast state an fdatasync after an idle gap took 240-280 us where back
  // to back it took 70 us (docs/accuracy.md), so the WAL probe is paced at that rate.
  const probes::ProbeSpec wal{.primitive = Primitive::kFdatasync,
                              .pattern = Pattern::kPreallocated,
                              .write_size = 1392,
                              .paced_per_sec = 150};
  p.probe_file_size = 64'000'000;
  p.companion_syncs_per_sec = 7;
  p.companion_sync_bytes = 36 * 1024;
  p.latency.push_back({.name = "etcd_wal_fsync_p99",
                       .spec = wal,
                       .stat = LatencyStat::kP99,
                       .max_ns = 10 * kMs,
                       .severe_ns = 100 * kMs,
                       .severe_why = "the default 100 ms heartbeat interval: followers miss "
                                     "heartbeats and start leader elections"});
  p.slow_syncs.push_back(
      {.name = "etcd_slow_fdatasync", .spec = wal, .over_ns = 1000 * kMs, .max_count = 0});
  // bbolt's commit rewrites pages in place and fdatasyncs: an overwrite of 4 KiB pages.
  p.latency.push_back({.name = "etcd_backend_commit_p99",
                       .spec = {Primitive::kFdatasync, Pattern::kOverwrite, 4096},
                       .stat = LatencyStat::kP99,
                       .max_ns = 25 * kMs,
                       .severe_ns = 0,
                       .severe_why = {}});
  p.rates.push_back({.name = "openshift_8000b_sync_floor",
                     .spec = {Primitive::kFdatasync, Pattern::kPreallocated, 8000},
                     .min_ops_per_sec = 50});
  p.durable_rule = true;  // a path that keeps nothing fails, whatever its speed
  return p;
}

Policy PostgresWal() {
  Policy p;
  p.source = "preset postgres-wal";
  p.recommend_wal_sync_method = true;
  // One client's commits, as `pgbench -N -c 1` makes them (docs/provisioning.md): the backend
  // overwrites its WAL page in a zero-filled segment and fdatasyncs it, then does the next
  // transaction before the next sync: four round trips between pgbench and the backend, each
  // asleep while the other works, 260 us on this machine (PostgreSQL's own time a commit outside
  // its WAL sync, 1/tps - wal_sync_time/wal_sync: a median of 258 us over 16 rounds, 201-374).
  // After such a gap a sync took 1.3-1.9x one that follows another (docs/accuracy.md), so the probe
  // does that work between its syncs, as round trips to a second thread, and its ops/s is the
  // commit rate such a client gets. The floor is durprobe's own, the sqlite-app preset's: 10 ms a
  // commit.
  p.rates.push_back({.name = "postgres_one_client_commits",
                     .spec = {.primitive = Primitive::kFdatasync,
                              .pattern = Pattern::kOverwrite,
                              .write_size = 8192,
                              .work_us = 260,
                              .work_round_trips = 4},
                     .min_ops_per_sec = 100});
  p.durable_rule = true;  // a path that keeps nothing fails, whatever its speed
  return p;
}

Policy SqliteApp() {
  Policy p;
  p.source = "preset sqlite-app";
  p.commits.push_back({.name = "sqlite_commits_WAL_FULL",
                       .journal = sqlite_bench::JournalMode::kWal,
                       .sync = sqlite_bench::Synchronous::kFull,
                       .min_commits_per_sec = 100});
  p.commits.push_back({.name = "sqlite_commits_DELETE_FULL",
                       .journal = sqlite_bench::JournalMode::kDelete,
                       .sync = sqlite_bench::Synchronous::kFull,
                       .min_commits_per_sec = 50});
  p.durable_rule = true;  // a path that keeps nothing fails, whatever its speed
  return p;
}

}  // namespace

std::vector<std::string> PresetNames() { return {"etcd", "postgres-wal", "sqlite-app"}; }

Result<Policy> Preset(std::string_view name) {
  if (name == "etcd") return Etcd();
  if (name == "postgres-wal") return PostgresWal();
  if (name == "sqlite-app") return SqliteApp();
  return Status::InvalidArgument(
      fmt::format("unknown preset '{}' (valid: etcd, postgres-wal, sqlite-app)", name));
}

}  // namespace durprobe::gate
