#include "report/html_input.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace durprobe::report {
namespace {

using nlohmann::json;

std::string Str(const json& j, const char* key) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

template <typename T>
T Get(const json& j, const char* key, T fallback = T()) {
  if (!j.contains(key) || j[key].is_null()) return fallback;
  return j[key].get<T>();  // throws type_error on a wrong type: reported by the caller
}

std::optional<bool> MaybeBool(const json& j, const char* key) {
  if (!j.contains(key) || j[key].is_null()) return std::nullopt;
  return j[key].get<bool>();
}

std::string Lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

template <typename Map>
auto Named(const Map& names, const std::string& name, const char* what) {
  auto it = names.find(Lower(name));
  if (it == names.end()) throw std::invalid_argument(fmt::format("unknown {} '{}'", what, name));
  return it->second;
}

probes::Outcome OutcomeOf(const std::string& s) {
  if (s == "unsupported") return probes::Outcome::kUnsupported;
  if (s == "error") return probes::Outcome::kError;
  if (s == "interrupted") return probes::Outcome::kInterrupted;
  return probes::Outcome::kOk;
}

probes::LatencySummary Summary(const json& j) {
  probes::LatencySummary s;
  s.min = Get<std::uint64_t>(j, "min");
  s.p50 = Get<std::uint64_t>(j, "p50");
  s.p90 = Get<std::uint64_t>(j, "p90");
  s.p99 = Get<std::uint64_t>(j, "p99");
  s.p999 = Get<std::uint64_t>(j, "p999");
  s.max = Get<std::uint64_t>(j, "max");
  s.mean = Get<double>(j, "mean");
  return s;
}

probes::ProbeResult Probe(const json& j) {
  probes::ProbeResult r;
  r.spec.primitive = Named(probes::PrimitiveNames(), Str(j, "primitive"), "primitive");
  r.spec.pattern = Named(probes::PatternNames(), Str(j, "pattern"), "pattern");
  r.spec.write_size = Get<std::uint64_t>(j, "write_size");
  r.outcome = OutcomeOf(Str(j, "status"));
  r.reason = Str(j, "reason");
  r.caveat = Str(j, "caveat");
  r.ops = Get<std::uint64_t>(j, "ops");
  r.ops_per_sec = Get<double>(j, "ops_per_sec");
  r.seconds = Get<double>(j, "seconds");
  if (j.contains("latency_ns")) r.latency = Summary(j["latency_ns"]);
  for (const json& b : j.value("latency_histogram", json::array())) {
    r.histogram.push_back({b.at(0).get<std::uint64_t>(), b.at(1).get<std::uint64_t>()});
  }
  return r;
}

platform::DeviceInfo Device(const json& j) {
  platform::DeviceInfo d;
  d.name = Str(j, "name");
  d.disk = Str(j, "disk");
  d.kind = Str(j, "kind");
  d.partition = Get<bool>(j, "partition");
  d.rotational = MaybeBool(j, "rotational");
  d.write_cache = Str(j, "write_cache");
  d.fua = MaybeBool(j, "fua");
  d.logical_block_size = Get<std::uint64_t>(j, "logical_block_size");
  d.physical_block_size = Get<std::uint64_t>(j, "physical_block_size");
  d.scheduler = Str(j, "scheduler");
  d.model = Str(j, "model");
  d.dm_name = Str(j, "dm_name");
  d.md_level = Str(j, "md_level");
  d.backing_file = Str(j, "backing_file");
  d.backing_fstype = Str(j, "backing_fstype");
  d.backing_mount_point = Str(j, "backing_mount_point");
  for (const json& s : j.value("slaves", json::array())) d.slaves.push_back(Device(s));
  return d;
}

platform::MountInfo Mount(const json& j) {
  platform::MountInfo m;
  m.fstype = Str(j, "fstype");
  m.fs_subtype = Str(j, "fs_subtype");
  m.source = Str(j, "source");
  m.mount_point = Str(j, "mount_point");
  m.root = Str(j, "root");
  m.options = Get<std::vector<std::string>>(j, "options");
  m.mount_options = Get<std::vector<std::string>>(j, "mount_options");
  m.super_options = Get<std::vector<std::string>>(j, "super_options");
  m.bind = Get<bool>(j, "bind");
  m.bind_note = Str(j, "bind_note");
  if (j.contains("statfs") && j["statfs"].is_object()) {
    const json& s = j["statfs"];
    m.statfs_known = true;
    std::string magic = Str(s, "magic");
    m.statfs_magic = magic.empty() ? 0 : std::stoull(magic, nullptr, 16);
    m.statfs_type = Str(s, "fstype");
    m.statfs_agrees = MaybeBool(s, "agrees");
  }
  if (j.contains("device") && j["device"].is_object()) m.device = Device(j["device"]);
  m.device_note = Str(j, "device_note");
  if (j.contains("container") && j["container"].is_object()) {
    const json& c = j["container"];
    m.container.in_container = Get<bool>(c, "in_container");
    m.container.runtime = Str(c, "runtime");
    m.container.evidence = Get<std::vector<std::string>>(c, "evidence");
    m.container.path_role = Str(c, "path_role");
    m.container.path_role_reason = Str(c, "path_role_reason");
  }
  m.notes = Get<std::vector<std::string>>(j, "notes");
  return m;
}

SqliteEntry Sqlite(const json& j) {
  SqliteEntry e;
  sqlite_bench::CommitResult& r = e.result;
  r.config.journal =
      Named(sqlite_bench::JournalModeNames(), Str(j, "journal_mode"), "journal mode");
  r.config.sync = Named(sqlite_bench::SynchronousNames(), Str(j, "synchronous"), "synchronous");
  r.config.rows_per_commit = Get<std::uint32_t>(j, "rows_per_commit", 1);
  if (j.contains("statement")) {
    r.config.statement =
        Named(sqlite_bench::StatementModeNames(), Str(j, "statement"), "statement");
  }
  if (j.contains("fullfsync") && !j["fullfsync"].is_null())
    r.config.fullfsync = j["fullfsync"].get<bool>();
  r.outcome = OutcomeOf(Str(j, "status"));
  r.reason = Str(j, "reason");
  r.commits = Get<std::uint64_t>(j, "commits");
  r.commits_per_sec = Get<double>(j, "commits_per_sec");
  r.rows_per_sec = Get<double>(j, "rows_per_sec");
  r.timed_ns = static_cast<std::uint64_t>(std::llround(Get<double>(j, "timed_seconds") * 1e9));
  r.repetition_commits_per_sec = Get<std::vector<double>>(j, "repetition_commits_per_sec");
  r.repetitions = static_cast<std::uint32_t>(r.repetition_commits_per_sec.size());
  r.sync_primitive = Str(j, "sync_primitive");
  if (j.contains("latency_ns")) r.latency = Summary(j["latency_ns"]);
  // Per-commit means back to totals, so SyncsOf and the per-commit helpers read as after a run.
  auto total = [&](double per_commit) {
    return static_cast<std::uint64_t>(std::llround(per_commit * double(r.commits)));
  };
  const json per_kind = j.value("vfs_per_commit", json::object());
  for (sqlite_bench::FileKind k : {sqlite_bench::FileKind::kDb, sqlite_bench::FileKind::kJournal,
                                   sqlite_bench::FileKind::kWal, sqlite_bench::FileKind::kOther}) {
    std::string name(sqlite_bench::NameOf(k));
    if (!per_kind.contains(name)) continue;
    sqlite_bench::KindCounts& c = r.commit_counts.of(k);
    c.syncs = total(Get<double>(per_kind[name], "syncs"));
    c.sync_ns = total(Get<double>(per_kind[name], "sync_ns"));
    c.dir_syncs = total(Get<double>(per_kind[name], "dir_syncs"));
  }
  SqliteCorrelation& c = e.correlation;
  c.measured_ns = Get<double>(j, "measured_commit_ns");
  c.sync_ns = Get<double>(j, "sync_ns_per_commit");
  c.non_sync_ns = std::max(0.0, Get<double>(j, "non_sync_ns_per_commit"));
  c.available = j.contains("predicted_commit_ns") && j["predicted_commit_ns"].is_number();
  c.predicted_ns = Get<double>(j, "predicted_commit_ns");
  c.predicted_sync_ns = Get<double>(j, "predicted_sync_ns");
  c.explained_share = Get<double>(j, "explained_share");
  c.residual_share = Get<double>(j, "residual_share");
  if (j.contains("speedup_vs_delete_full") && j["speedup_vs_delete_full"].is_number()) {
    e.speedup = j["speedup_vs_delete_full"].get<double>();
  }
  return e;
}

Severity SeverityOf(const std::string& s) {
  return s == "fail" ? Severity::kFail : s == "warn" ? Severity::kWarn : Severity::kInfo;
}

Context ContextOf(const json& j) {
  Context c;
  c.durprobe_version = Str(j, "durprobe_version");
  c.host = Str(j, "host");
  c.os = Str(j, "os");
  c.kernel = Str(j, "kernel");
  c.machine = Str(j, "machine");
  c.sqlite_version = Str(j, "sqlite_version");
  c.build_type = Str(j, "build_type");
  c.optimized = Get<bool>(j, "optimized", true);
  c.assertions = Get<bool>(j, "assertions", false);
  c.started_at = Str(j, "started_at");
  c.command = Str(j, "command");
  c.ld_preload = Str(j, "ld_preload");
  c.command_line = Str(j, "command_line");
  c.interrupted = Get<bool>(j, "interrupted", false);
  c.interrupt_signal = Get<int>(j, "interrupt_signal", 0);
  return c;
}

}  // namespace

Result<Report> ReadReportForHtml(const json& doc) {
  Report report;
  std::string where = "context";
  try {
    report.context = ContextOf(doc.value("context", json::object()));
    for (const json& t : doc.at("targets")) {
      Target target;
      target.path = Str(t, "path");
      where = "target " + target.path;
      if (t.contains("mount") && t["mount"].is_object()) target.mount = Mount(t["mount"]);
      for (const json& p : t.value("probes", json::array())) target.probes.push_back(Probe(p));
      for (const json& s : t.value("sqlite", json::array())) target.sqlite.push_back(Sqlite(s));
      for (const json& f : t.value("findings", json::array())) {
        target.findings.push_back(
            {SeverityOf(Str(f, "severity")), Str(f, "code"), Str(f, "message")});
      }
      report.targets.push_back(std::move(target));
    }
  } catch (const std::exception& e) {
    return Status::InvalidArgument(fmt::format("cannot read {}: {}", where, e.what()));
  }
  return report;
}

}  // namespace durprobe::report
