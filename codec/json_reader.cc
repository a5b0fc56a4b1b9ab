#include "codec/json_reader.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/durability_model.h"
#include "analysis/durability_risk.h"
#include "analysis/sqlite_correlation.h"
#include "codec/concurrency_json_reader.h"
#include "codec/crashsim_json_reader.h"
#include "codec/crashtest_json.h"
#include "codec/durability_json.h"
#include "codec/ebs_json.h"
#include "codec/flush_json.h"
#include "codec/fsync_errors_json.h"
#include "codec/json_reader_sections.h"
#include "codec/mount_json_reader.h"
#include "codec/path_summary_json.h"
#include "codec/powercut_json.h"
#include "codec/repeats_json.h"
#include "codec/sqlite_json_reader.h"
#include "codec/sqlite_workloads_json_reader.h"
#include "probes/op_cost.h"

namespace durprobe::codec {
namespace {

using nlohmann::json;

model::Context ReadContext(const JsonFields& f) {
  model::Context c;
  c.durprobe_version = f.String("durprobe_version", Need::kRequired);
  c.host = f.String("host", Need::kRequired);
  c.os = f.String("os", Need::kRequired);
  c.kernel = f.String("kernel", Need::kRequired);
  c.machine = f.String("machine");
  c.sqlite_version = f.String("sqlite_version", Need::kRequired);
  c.build_type = f.String("build_type", Need::kRequired);
  c.optimized = f.Bool("optimized", Need::kOptional, true);
  c.assertions = f.Bool("assertions");
  c.started_at = f.String("started_at", Need::kRequired);
  c.command = f.String("command");
  c.ld_preload = f.String("ld_preload");
  c.sqlite_build = ReadSqliteBuild(f.Object("sqlite"));
  c.command_line = f.String("command_line");
  c.interrupted = f.Bool("interrupted");
  c.interrupt_signal = static_cast<int>(f.Int("interrupt_signal"));
  c.options = f.Raw("options");
  if (f.Has("cpu_quota")) {
    JsonFields q = f.Object("cpu_quota");
    c.cpu_quota.version = q.String("cgroup", Need::kRequired);
    c.cpu_quota.cgroup = q.String("path");
    c.cpu_quota.quota_us = q.Uint("quota_us");
    c.cpu_quota.period_us = q.Uint("period_us");
  }
  f.Each("writers", Need::kOptional, [&c](const JsonFields& w) {
    c.writers.push_back({static_cast<int>(w.Int("pid", Need::kRequired)), w.String("name"),
                         w.Uint("write_bytes"), w.Uint("writes")});
  });
  if (f.Has("io_limits")) {
    JsonFields q = f.Object("io_limits");
    c.io_limits.version = q.String("cgroup", Need::kRequired);
    c.io_limits.cgroup = q.String("path");
    q.Each("devices", Need::kOptional, [&c](const JsonFields& d) {
      platform::IoLimit l;
      l.device = d.String("device", Need::kRequired);
      l.name = d.String("name");
      l.cgroup = d.String("path");
      l.read_bps = d.Uint("read_bps");
      l.write_bps = d.Uint("write_bps");
      l.read_iops = d.Uint("read_iops");
      l.write_iops = d.Uint("write_iops");
      l.latency_target_us = d.Uint("latency_target_us");
      l.weight = d.Uint("weight");
      c.io_limits.devices.push_back(std::move(l));
    });
  }
  return c;  // build_warnings are derived from the fields above, not read
}

probes::ProbeResult ReadProbe(const JsonFields& f) {
  probes::ProbeResult r;
  r.spec.primitive =
      f.Enum("primitive", probes::PrimitiveNames(), r.spec.primitive, Need::kRequired);
  r.spec.write_size = f.Uint("write_size", Need::kRequired);
  r.spec.pattern = f.Enum("pattern", probes::PatternNames(), r.spec.pattern, Need::kRequired);
  // Absent (one write per operation) in every report but postgres-wal's comparisons.
  r.spec.writes_per_op = static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(f.Uint("writes_per_op"), 1, probes::kMaxWritesPerOp));
  r.spec.paced_per_sec = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(f.Uint("paced_per_sec"), probes::kMaxPacedPerSec));
  r.spec.work_us =
      static_cast<std::uint32_t>(std::min<std::uint64_t>(f.Uint("work_us"), probes::kMaxWorkUs));
  r.spec.work_round_trips = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(f.Uint("work_round_trips"), probes::kMaxWorkRoundTrips));
  r.outcome = ReadOutcome(f);
  r.reason = f.String("reason");
  r.caveat = f.String("caveat");
  if (r.outcome == probes::Outcome::kUnsupported) return r;  // nothing was measured
  r.ops = f.Uint("ops", Need::kRequired);
  r.warmup_ops = f.Uint("warmup_ops");
  r.seconds = f.Double("seconds");
  r.ops_per_sec = f.Double("ops_per_sec", Need::kRequired);
  r.converged = f.Bool("converged");
  r.latency = ReadLatency(f.Object("latency_ns", Need::kRequired),
                          {"min", "p50", "p90", "p99", "p999", "max", "mean"});
  // A report from before latency_ns.count was written: its figures came from every timed
  // operation, so the percentiles its operations support (model/percentiles.h) are those of ops.
  if (!f.Object("latency_ns").Has("count")) r.latency.count = r.ops;
  // [[upper_bound_ns, count], ...]; absent in reports from before it was written.
  nlohmann::json histogram = f.Raw("latency_histogram");
  if (histogram.is_array()) {
    for (const nlohmann::json& b : histogram) {
      if (b.is_array() && b.size() == 2 && b[0].is_number_unsigned() && b[1].is_number_unsigned()) {
        r.histogram.push_back({b[0].get<std::uint64_t>(), b[1].get<std::uint64_t>()});
      }
    }
  }
  // [[t_s, ops, p50_ns, mean_ns], ...]; absent in reports from before it was written.
  nlohmann::json series = f.Raw("latency_series");
  if (series.is_array()) {
    for (const nlohmann::json& p : series) {
      if (p.is_array() && p.size() == 4 && p[0].is_number() && p[1].is_number_unsigned() &&
          p[2].is_number_unsigned() && p[3].is_number()) {
        r.series.push_back({NanosSinceStart(p[0].get<double>()), p[1].get<std::uint64_t>(),
                            p[2].get<std::uint64_t>(), p[3].get<double>()});
      }
    }
  }
  r.has_sync_part = f.Has("sync_latency_ns");
  if (r.has_sync_part) {
    r.sync_latency = ReadLatency(f.Object("sync_latency_ns"));
    r.sync_sample_every = f.Has("sync_sample_every") ? f.Uint("sync_sample_every") : 1;
  }
  if (f.Has("cpu")) {
    JsonFields cpu = f.Object("cpu");
    r.cpu.quota_cpus = cpu.Double("quota_cpus");
    r.cpu.spun_ns = cpu.Uint("spun_ns");
    r.cpu.slept_ns = cpu.Uint("slept_ns");
    r.cpu.counted = cpu.Has("throttling");
    if (r.cpu.counted) {
      JsonFields t = cpu.Object("throttling");
      r.cpu.throttling.periods = t.Uint("periods");
      r.cpu.throttling.throttled = t.Uint("throttled_periods");
      r.cpu.throttling.throttled_ns = t.Uint("throttled_ns");
    }
  }
  r.device_flushes = ReadFlushTally(f.Object("device_flushes"));
  return r;
}

probes::OpCostResult ReadOpCost(const JsonFields& f) {
  static const std::map<std::string, probes::FileOp> kOps = [] {
    std::map<std::string, probes::FileOp> names;
    for (probes::FileOp op : probes::AllFileOps()) names.emplace(probes::NameOf(op), op);
    return names;
  }();
  probes::OpCostResult r;
  r.op = f.Enum("op", kOps, r.op, Need::kRequired);
  r.size = f.Uint("size");
  r.outcome = ReadOutcome(f);
  r.reason = f.String("reason");
  r.ops = f.Uint("ops");
  r.seconds = f.Double("seconds");
  r.ops_per_sec = f.Double("ops_per_sec");
  r.latency = ReadLatency(f.Object("latency_ns"));
  return r;
}

model::Finding ReadFinding(const JsonFields& f) {
  static const auto kSeverities =
      NamesOf({model::Severity::kInfo, model::Severity::kWarn, model::Severity::kFail});
  model::Finding finding;
  finding.severity = f.Enum("severity", kSeverities, model::Severity::kInfo, Need::kRequired);
  finding.code = f.String("code", Need::kRequired);
  finding.message = f.String("message", Need::kRequired);
  return finding;
}

model::Target ReadTarget(const JsonFields& f, const model::Context& context) {
  model::Target t;
  t.path = f.String("path", Need::kRequired);
  if (f.Has("mount")) t.mount = ReadMount(f.Object("mount"));
  if (f.Has("reference")) {
    JsonFields ref = f.Object("reference");
    t.reference_probe = ref.String("probe");
    ref.Each("samples", Need::kOptional, [&](const JsonFields& x) {
      t.reference.push_back({NanosSinceStart(x.Double("t_s")), x.String("before"), x.Uint("ops"),
                             x.Uint("p50_ns"), x.Double("mean_ns")});
    });
  }
  if (f.Has("ebs")) t.ebs = ReadEbs(f.Object("ebs"));
  if (f.Has("states")) {
    JsonFields d = f.Object("states");
    t.device_states = model::DeviceStates{d.String("evidence"), d.Double("fast_ns"),
                                          d.Double("slow_ns"), d.Double("slow_share")};
  }
  f.Each("probes", Need::kRequired, [&](const JsonFields& p) {
    if (p.Has("states")) t.probe_states.push_back(ReadProbeStates(p, t.probes.size()));
    if (p.Has("device_moved")) {
      JsonFields m = p.Object("device_moved");
      t.moved.push_back({t.probes.size(), m.Double("before_ns"), m.Double("after_ns"),
                         m.Double("low_ns"), m.Double("high_ns")});
    }
    if (p.Has("repeats")) {
      t.probe_repeats.push_back(ReadProbeRepeats(p.Object("repeats"), t.probes.size()));
    }
    t.probes.push_back(ReadProbe(p));
  });
  f.Each("op_costs", Need::kOptional,
         [&](const JsonFields& c) { t.op_costs.push_back(ReadOpCost(c)); });
  f.Each("sqlite", Need::kOptional,
         [&](const JsonFields& s) { t.sqlite.push_back(ReadSqliteEntry(s)); });
  t.sqlite_workloads = ReadWorkloads(f);
  t.crashsim = ReadCrashsim(f);
  t.crashtest = ReadCrashtest(f);
  t.fsync_errors = ReadFsyncErrors(f);
  if (f.Has("powercut")) t.powercut = ReadPowercut(f.Object("powercut"));
  t.concurrency = ReadConcurrency(f);
  t.serial_vs_concurrent = ReadSerialVsConcurrent(f);
  f.Each("findings", Need::kRequired,
         [&](const JsonFields& x) { t.findings.push_back(ReadFinding(x)); });
  f.Each("unfinished", Need::kOptional, [&](const JsonFields& u) {
    // A report from before the budget could cut a run has only interruptions.
    t.unfinished.push_back({u.Enum("kind", model::UnfinishedKind::kProbe, Need::kRequired),
                            u.String("label"), u.Enum("reason", model::Unfinished::kInterrupted)});
  });
  // As the run decided it; a report from before durprobe wrote the verdict gets it worked out
  // from what it holds, as the run would have.
  if (f.Has("durability")) {
    t.durability = ReadDurability(f.Object("durability"));
  } else {
    analysis::AssessDurability(t, context);
  }
  analysis::AssessRisks(t);  // from the verdict, as the run decided it
  // From the rates as read: a report saved when speedup came from the mean commit gets the
  // median-based one every other figure of the row uses.
  analysis::AssignSpeedups(t.sqlite);
  t.summary = ReadPathSummary(f);
  t.advice = ReadAdvice(f);
  return t;
}

// checks[] as codec/check_json.cc writes it; `pass` is derived from `status`, not read.
model::CheckResult ReadCheck(const JsonFields& f) {
  static const auto kOutcomes =
      NamesOf({model::CheckOutcome::kPass, model::CheckOutcome::kFail, model::CheckOutcome::kError,
               model::CheckOutcome::kSkipped, model::CheckOutcome::kUnstable});
  model::CheckResult c;
  c.rule = f.String("rule", Need::kRequired);
  c.path = f.String("path");
  c.outcome = f.Enum("status", kOutcomes, model::CheckOutcome::kError, Need::kRequired);
  c.measured = f.OptionalDouble("measured");
  c.threshold = f.Double("threshold");
  c.comparison = f.Enum("comparison", model::CheckComparison::kEqual);
  // The unit of a fact is "", the one name ParseName does not read (model/report.h CheckUnit).
  c.unit =
      f.String("unit").empty() ? model::CheckUnit::kNone : f.Enum("unit", model::CheckUnit::kNone);
  c.message = f.String("message");
  c.samples = f.Uint("samples");
  c.ci_low = f.OptionalDouble("ci_low");
  c.ci_high = f.OptionalDouble("ci_high");
  c.tail_failure = f.Bool("tail_failure");
  c.warning = f.Bool("warning");
  c.severe = f.Bool("severe");
  c.drift_low = f.OptionalDouble("drift_low");
  c.drift_high = f.OptionalDouble("drift_high");
  c.remeasured = static_cast<std::uint32_t>(f.Uint("remeasured"));
  return c;
}

}  // namespace

Status ValidateReport(const json& doc) {
  if (!doc.is_object()) return Status::InvalidArgument("not a JSON object");
  if (!doc.contains("schema") || !doc["schema"].is_string()) {
    return Status::InvalidArgument("no \"schema\" key: not a durprobe report");
  }
  std::string schema = doc["schema"];
  if (schema != model::kReportSchema) {
    return Status::InvalidArgument(
        fmt::format("schema is '{}', expected {}", schema, model::kReportSchema));
  }
  if (!doc.contains("targets") || !doc["targets"].is_array() || doc["targets"].empty() ||
      !doc["targets"][0].is_object()) {
    return Status::InvalidArgument("the report has no targets");
  }
  return Status::Ok();
}

Result<model::Report> FromJson(const json& doc) {
  if (Status valid = ValidateReport(doc); !valid.ok()) return valid;
  std::string error;
  JsonFields root(&doc, "", &error);
  model::Report report;
  report.context = ReadContext(root.Object("context", Need::kRequired));
  root.Each("targets", Need::kRequired,
            [&](const JsonFields& t) { report.targets.push_back(ReadTarget(t, report.context)); });
  root.Each("checks", Need::kOptional,
            [&](const JsonFields& c) { report.checks.push_back(ReadCheck(c)); });
  if (!error.empty()) return Status::InvalidArgument(error);
  return report;
}

Result<model::Report> FromJson(const std::string& text) {
  Result<json> doc = ParseJsonText(text);
  if (!doc.ok()) return doc.status();
  return FromJson(*doc);
}

}  // namespace durprobe::codec
