#include "codec/report_json.h"

#include "codec/check_json.h"
#include "codec/concurrency_json.h"
#include "codec/crashsim_json.h"
#include "codec/crashtest_json.h"
#include "codec/durability_json.h"
#include "codec/ebs_json.h"
#include "codec/flush_json.h"
#include "codec/fsync_errors_json.h"
#include "codec/json_fields.h"
#include "codec/mount_json.h"
#include "codec/path_summary_json.h"
#include "codec/powercut_json.h"
#include "codec/repeats_json.h"
#include "codec/sqlite_json.h"
#include "codec/sqlite_workloads_json.h"
#include "model/percentiles.h"
#include "text/utf8.h"

namespace durprobe::codec {

using nlohmann::json;

namespace {

json OrNull(const std::optional<std::uint64_t>& v) { return v ? json(*v) : json(nullptr); }

json ReferenceJson(const std::vector<model::ReferenceSample>& samples) {
  json out = json::array();
  for (const model::ReferenceSample& r : samples) {
    out.push_back({{"t_s", SecondsSinceStart(r.start_ns)},
                   {"before", r.before},
                   {"ops", r.ops},
                   {"p50_ns", r.p50_ns},
                   {"mean_ns", r.mean_ns}});
  }
  return out;
}

}  // namespace

json ToJson(const probes::LatencySummary& s) {
  json j{{"min", s.min},
         {"p50", s.p50},
         {"p90", OrNull(model::P90(s))},
         {"p95", s.p95},
         {"p99", OrNull(model::P99(s))},
         {"p999", OrNull(model::P999(s))},
         {"max", s.max},
         {"mean", s.mean},
         {"p50_ci_low", s.p50_ci_low},
         {"p50_ci_high", s.p50_ci_high},
         {"p99_ci_low", s.p99_ci_low},
         {"p99_ci_high", s.p99_ci_high},
         {"count", s.count}};
  // fio's ladder ends at p99.99: written where 10,000 operations or more support it.
  if (std::optional<std::uint64_t> p9999 = model::P9999(s)) j["p9999"] = *p9999;
  return j;
}

json ToJson(const probes::ProbeResult& r) {
  json j{{"primitive", probes::NameOf(r.spec.primitive)},
         {"write_size", r.spec.write_size},
         {"pattern", probes::NameOf(r.spec.pattern)},
         {"status", probes::NameOf(r.outcome)}};
  if (r.spec.writes_per_op != 1) j["writes_per_op"] = r.spec.writes_per_op;
  if (r.spec.paced_per_sec != 0) j["paced_per_sec"] = r.spec.paced_per_sec;
  if (r.spec.work_us != 0) j["work_us"] = r.spec.work_us;
  if (r.spec.work_round_trips != 0) j["work_round_trips"] = r.spec.work_round_trips;
  if (!r.reason.empty()) j["reason"] = r.reason;
  if (!r.caveat.empty()) j["caveat"] = r.caveat;
  if (r.outcome == probes::Outcome::kUnsupported) return j;
  j["ops"] = r.ops;
  j["warmup_ops"] = r.warmup_ops;
  j["seconds"] = r.seconds;
  j["ops_per_sec"] = r.ops_per_sec;
  j["converged"] = r.converged;
  j["latency_ns"] = ToJson(r.latency);
  json histogram = json::array();
  for (const probes::HistogramBucket& b : r.histogram) {
    histogram.push_back(json::array({b.upper_bound_ns, b.count}));
  }
  j["latency_histogram"] = histogram;
  json series = json::array();
  for (const probes::SeriesPoint& p : r.series) {
    series.push_back(json::array({SecondsSinceStart(p.start_ns), p.ops, p.p50_ns, p.mean_ns}));
  }
  j["latency_series"] = series;
  if (r.has_sync_part) {
    j["sync_latency_ns"] = ToJson(r.sync_latency);
    j["sync_sample_every"] = r.sync_sample_every;
  }
  // Only a probe that ran under a CPU quota, or was seen throttled, says how it met the CPU.
  if (r.cpu.quota_cpus > 0 || r.cpu.throttled()) {
    json cpu{{"quota_cpus", r.cpu.quota_cpus},
             {"wait", r.cpu.wait().empty() ? json(nullptr) : json(std::string(r.cpu.wait()))},
             {"spun_ns", r.cpu.spun_ns},
             {"slept_ns", r.cpu.slept_ns},
             {"throttling", nullptr}};
    if (r.cpu.counted) {
      cpu["throttling"] = {{"periods", r.cpu.throttling.periods},
                           {"throttled_periods", r.cpu.throttling.throttled},
                           {"throttled_ns", r.cpu.throttling.throttled_ns}};
    }
    j["cpu"] = cpu;
  }
  if (r.device_flushes.counted) j["device_flushes"] = ToJson(r.device_flushes);
  return j;
}

json ToJson(const model::Context& c) {
  json j{{"durprobe_version", c.durprobe_version},
         {"host", c.host},
         {"os", c.os},
         {"kernel", c.kernel},
         {"machine", c.machine},
         {"sqlite_version", c.sqlite_version},
         {"build_type", c.build_type},
         {"optimized", c.optimized},
         {"assertions", c.assertions},
         {"started_at", c.started_at},
         {"command", c.command},
         {"ld_preload", nullptr}};
  if (!c.ld_preload.empty()) text::PutPath(j, "ld_preload", c.ld_preload);
  j["command_line"] = c.command_line;
  j["options"] = c.options;
  j["interrupted"] = c.interrupted;
  if (c.interrupted) j["interrupt_signal"] = c.interrupt_signal;
  j["sqlite"] = ToJson(c.sqlite_build);
  // Written where a cgroup CPU controller was found, so reports from hosts without one (and
  // reports saved before this key) read back unchanged.
  if (!c.cpu_quota.version.empty()) {
    json q{{"cgroup", c.cpu_quota.version},
           {"quota_us", c.cpu_quota.limited() ? json(c.cpu_quota.quota_us) : json(nullptr)},
           {"period_us", c.cpu_quota.period_us},
           {"cpus", c.cpu_quota.limited() ? json(c.cpu_quota.cpus()) : json(nullptr)}};
    text::PutPath(q, "path", c.cpu_quota.cgroup);
    j["cpu_quota"] = q;
  }
  std::vector<std::string> warnings = BuildWarnings(c);
  if (!warnings.empty()) j["build_warnings"] = warnings;
  return j;
}

json ToJson(const probes::OpCostResult& r) {
  json j{{"op", probes::NameOf(r.op)},
         {"size", r.size},
         {"status", probes::NameOf(r.outcome)},
         {"ops", r.ops},
         {"seconds", r.seconds},
         {"ops_per_sec", r.ops_per_sec},
         {"latency_ns", ToJson(r.latency)}};
  if (!r.reason.empty()) j["reason"] = r.reason;
  return j;
}

json ToJson(const model::Target& t) {
  json probes = json::array();
  for (const probes::ProbeResult& r : t.probes) probes.push_back(ToJson(r));
  for (const model::ProbeRepeats& r : t.probe_repeats) {
    if (r.probe < probes.size()) probes[r.probe]["repeats"] = ToJson(r);
  }
  for (const model::DeviceMoved& m : t.moved) {
    if (m.probe >= probes.size()) continue;
    probes[m.probe]["device_moved"] = {{"before_ns", m.before_ns},
                                       {"after_ns", m.after_ns},
                                       {"low_ns", m.low_ns},
                                       {"high_ns", m.high_ns}};
  }
  for (const model::ProbeStates& ps : t.probe_states) {
    if (ps.probe >= probes.size()) continue;
    json states = json::array();
    for (const model::StateFigures& f : ps.states) {
      json one{{"state", NameOf(f.state)},
               {"time_share", f.time_share},
               {"ops", f.ops},
               {"p50_ns", f.p50_ns},
               {"p99_ns", f.p99_ns > 0 ? json(f.p99_ns) : json(nullptr)}};
      if (Ranged(f.p50_repeats)) one["repeats"] = {{"p50_ns", ToJson(f.p50_repeats)}};
      if (f.sync_ops > 0) {
        one["sync"] = {{"ops", f.sync_ops},
                       {"p50_ns", f.sync_p50_ns},
                       {"p99_ns", f.sync_p99_ns > 0 ? json(f.sync_p99_ns) : json(nullptr)}};
      }
      states.push_back(std::move(one));
    }
    probes[ps.probe]["states"] = std::move(states);
  }
  json findings = json::array();
  for (const model::Finding& f : t.findings) {
    findings.push_back(
        {{"severity", NameOf(f.severity)}, {"code", f.code}, {"message", f.message}});
  }
  json j{{"probes", probes}, {"findings", findings}};
  text::PutPath(j, "path", t.path);
  if (t.mount) j["mount"] = ToJson(*t.mount);
  if (t.durability) j["durability"] = ToJson(*t.durability);
  if (!t.reference.empty()) {
    j["reference"] = {{"probe", t.reference_probe}, {"samples", ReferenceJson(t.reference)}};
  }
  if (t.device_states) {
    j["states"] = {{"evidence", t.device_states->evidence},
                   {"fast_ns", t.device_states->fast_ns},
                   {"slow_ns", t.device_states->slow_ns},
                   {"slow_share", t.device_states->slow_share}};
  }
  if (t.ebs) j["ebs"] = ToJson(*t.ebs);
  if (!t.sqlite.empty()) {
    j["sqlite"] = json::array();
    for (const model::SqliteEntry& e : t.sqlite) j["sqlite"].push_back(ToJson(e));
  }
  if (!t.sqlite_workloads.empty()) j["sqlite_workloads"] = ToJson(t.sqlite_workloads);
  if (!t.unfinished.empty()) {
    json unfinished = json::array();
    for (const model::Unfinished& u : t.unfinished) {
      unfinished.push_back(
          {{"kind", NameOf(u.kind)}, {"label", u.label}, {"reason", NameOf(u.reason)}});
    }
    j["unfinished"] = unfinished;
  }
  if (!t.crashsim.empty()) j["crashsim"] = ToJson(t.crashsim);
  if (!t.crashtest.empty()) j["crashtest"] = ToJson(t.crashtest);
  if (!t.fsync_errors.empty()) j["fsync_errors"] = ToJson(t.fsync_errors);
  if (t.powercut) j["powercut"] = ToJson(*t.powercut);
  if (!t.concurrency.empty()) j["concurrency"] = ToJson(t.concurrency);
  if (t.serial_vs_concurrent) j["serial_vs_concurrent"] = ToJson(*t.serial_vs_concurrent);
  if (t.summary) j["summary"] = ToJson(*t.summary);
  if (!t.advice.empty()) j["advice"] = ToJson(t.advice);
  if (!t.op_costs.empty()) {
    json costs = json::array();
    for (const probes::OpCostResult& r : t.op_costs) costs.push_back(ToJson(r));
    j["op_costs"] = costs;
  }
  return j;
}

json ToJson(const model::Report& report) {
  json targets = json::array();
  for (const model::Target& t : report.targets) targets.push_back(ToJson(t));
  json j{
      {"schema", model::kReportSchema}, {"context", ToJson(report.context)}, {"targets", targets}};
  if (!report.checks.empty()) j["checks"] = ToJson(report.checks);
  text::MakeValidUtf8(j);  // messages and reasons can quote a path
  return j;
}

std::string DumpJson(const json& doc) {
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

void WriteJson(const model::Report& report, std::ostream& out) { out << DumpJson(ToJson(report)); }

}  // namespace durprobe::codec
