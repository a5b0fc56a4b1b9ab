#include "render/prometheus/prometheus_reporter.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <tuple>

#include "analysis/fsync_error_meaning.h"
#include "model/percentiles.h"
#include "text/utf8.h"

namespace durprobe::render::prometheus {
namespace {

struct Family {
  const char* name;
  const char* type;
  const char* help;
};

void Header(const Family& f, std::ostream& out) {
  fmt::print(out, "# HELP {} {}\n# TYPE {} {}\n", f.name, f.help, f.name, f.type);
}

std::string ProbeLabels(const std::string& path, const probes::ProbeResult& r) {
  // Several writes per operation read "2x8192", so their series differ from one write's.
  std::string size = r.spec.writes_per_op == 1
                         ? std::to_string(r.spec.write_size)
                         : fmt::format("{}x{}", r.spec.writes_per_op, r.spec.write_size);
  // A paced probe or one with work between operations is a series of its own.
  std::string rhythm;
  if (r.spec.paced_per_sec > 0) rhythm = fmt::format(",paced_per_sec=\"{}\"", r.spec.paced_per_sec);
  if (r.spec.work_us > 0) rhythm = fmt::format(",work_us=\"{}\"", r.spec.work_us);
  if (r.spec.work_round_trips > 0) {
    rhythm += fmt::format(",work_round_trips=\"{}\"", r.spec.work_round_trips);
  }
  return fmt::format("path=\"{}\",primitive=\"{}\",pattern=\"{}\",size=\"{}\"{}", PromLabel(path),
                     probes::NameOf(r.spec.primitive), probes::NameOf(r.spec.pattern), size,
                     rhythm);
}

// Prometheus floats: plain decimal, no thousands separators, enough digits for nanoseconds.
std::string Num(double v) { return fmt::format("{:.9g}", v); }

bool Measured(const probes::ProbeResult& r) {
  return r.outcome == probes::Outcome::kOk && r.ops > 0;
}

// What the metric measures: the sync call alone where it was timed apart (as etcd's
// wal_fsync_duration_seconds does), else the whole synced write.
const probes::LatencySummary& SyncSummary(const probes::ProbeResult& r) {
  return r.has_sync_part ? r.sync_latency : r.latency;
}
const std::vector<probes::HistogramBucket>& SyncBuckets(const probes::ProbeResult& r) {
  return r.has_sync_part ? r.sync_histogram : r.histogram;
}

void WriteHistograms(const model::Report& report, std::ostream& out) {
  Header({"durprobe_sync_latency_seconds", "histogram",
          "Latency of one sync (the sync call alone where separate from the write), per probe."},
         out);
  for (const model::Target& t : report.targets) {
    for (const probes::ProbeResult& r : t.probes) {
      const std::vector<probes::HistogramBucket>& buckets = SyncBuckets(r);
      if (!Measured(r) || buckets.empty()) continue;
      std::string labels = ProbeLabels(t.path, r);
      std::uint64_t total = 0;
      for (const probes::HistogramBucket& b : buckets) total += b.count;
      for (double le : SyncLatencyBuckets()) {
        // A durprobe bucket counts at the first bound it fits under whole: within 0.8% of le.
        auto le_ns = static_cast<std::uint64_t>(le * 1e9 + 0.5);
        std::uint64_t n = 0;
        for (const probes::HistogramBucket& b : buckets)
          n += b.upper_bound_ns <= le_ns ? b.count : 0;
        fmt::print(out, "durprobe_sync_latency_seconds_bucket{{{},le=\"{}\"}} {}\n", labels,
                   Num(le), n);
      }
      fmt::print(out, "durprobe_sync_latency_seconds_bucket{{{},le=\"+Inf\"}} {}\n", labels, total);
      const probes::LatencySummary& s = SyncSummary(r);
      fmt::print(out, "durprobe_sync_latency_seconds_sum{{{}}} {}\n", labels,
                 Num(s.mean * static_cast<double>(total) / 1e9));
      fmt::print(out, "durprobe_sync_latency_seconds_count{{{}}} {}\n", labels, total);
    }
  }
  Header({"durprobe_sync_quantile_latency_seconds", "summary",
          "Quantiles of one sync's latency, per probe (same samples as the histogram)."},
         out);
  for (const model::Target& t : report.targets) {
    for (const probes::ProbeResult& r : t.probes) {
      if (!Measured(r)) continue;
      const probes::LatencySummary& s = SyncSummary(r);
      std::string labels = ProbeLabels(t.path, r);
      for (auto [q, fraction, v] :
           {std::tuple{"0.5", 0.5, s.p50}, std::tuple{"0.9", 0.9, s.p90},
            std::tuple{"0.95", 0.95, s.p95}, std::tuple{"0.99", 0.99, s.p99},
            std::tuple{"0.999", 0.999, s.p999}}) {
        // A quantile its operations cannot support is left out, as the other formats leave it
        // blank (model/percentiles.h): Prometheus reads a summary without it.
        if (fraction != 0.5 && !model::PercentileSupported(fraction, s.count)) continue;
        fmt::print(out, "durprobe_sync_quantile_latency_seconds{{{},quantile=\"{}\"}} {}\n", labels,
                   q, Num(static_cast<double>(v) / 1e9));
      }
      fmt::print(out, "durprobe_sync_quantile_latency_seconds_sum{{{}}} {}\n", labels,
                 Num(s.mean * static_cast<double>(s.count) / 1e9));
      fmt::print(out, "durprobe_sync_quantile_latency_seconds_count{{{}}} {}\n", labels, s.count);
    }
  }
}

// Only where a probe's device flushes were counted: no family at all otherwise.
void WriteFlushes(const model::Report& report, std::ostream& out) {
  bool header = false;
  for (const model::Target& t : report.targets) {
    for (const probes::ProbeResult& r : t.probes) {
      if (!Measured(r) || !r.device_flushes.ok()) continue;
      if (!header) {
        Header({"durprobe_probe_flushes_per_op", "gauge",
                "Flush requests the block device completed per operation, less the background "
                "(the device where the probe caused the most), per probe."},
               out);
        header = true;
      }
      fmt::print(out, "durprobe_probe_flushes_per_op{{{}}} {}\n", ProbeLabels(t.path, r),
                 Num(r.device_flushes.PerOp()));
    }
  }
}

void WriteCommits(const model::Report& report, std::ostream& out) {
  Header({"durprobe_sqlite_commits_per_second", "gauge",
          "Single-row SQLite commits per second (median of repetitions)."},
         out);
  for (const model::Target& t : report.targets) {
    std::set<std::pair<std::string, std::string>> seen;
    for (const model::SqliteEntry& e : t.sqlite) {
      const sqlite_bench::CommitResult& r = e.result;
      if (r.outcome != probes::Outcome::kOk || r.config.rows_per_commit != 1) continue;
      std::string j(sqlite_bench::NameOf(r.config.journal)), s(sqlite_bench::NameOf(r.config.sync));
      if (!seen.insert({j, s}).second) continue;  // one series per label set
      fmt::print(out,
                 "durprobe_sqlite_commits_per_second{{path=\"{}\",journal_mode=\"{}\","
                 "synchronous=\"{}\"}} {}\n",
                 PromLabel(t.path), j, s, Num(r.commits_per_sec));
    }
  }
}

void WriteChecks(const model::Report& report, std::ostream& out) {
  Header({"durprobe_check_pass", "gauge",
          "1 when the rule passed on the path, 0 when it failed or could not be measured."},
         out);
  for (const model::CheckResult& c : report.checks) {
    if (c.outcome == model::CheckOutcome::kSkipped) continue;
    fmt::print(out, "durprobe_check_pass{{path=\"{}\",rule=\"{}\"}} {}\n", PromLabel(c.path),
               PromLabel(c.rule), c.outcome == model::CheckOutcome::kPass ? 1 : 0);
  }
  bool unstable = std::any_of(report.checks.begin(), report.checks.end(), [](const auto& c) {
    return c.outcome == model::CheckOutcome::kUnstable;
  });
  if (unstable) {
    Header({"durprobe_check_unstable", "gauge",
            "1 when the device moved during the run by enough to flip the rule (pass is 0)."},
           out);
  }
  for (const model::CheckResult& c : report.checks) {
    if (c.outcome != model::CheckOutcome::kUnstable) continue;
    fmt::print(out, "durprobe_check_unstable{{path=\"{}\",rule=\"{}\"}} 1\n", PromLabel(c.path),
               PromLabel(c.rule));
  }
  Header({"durprobe_check_measured", "gauge", "The value a rule measured, in its unit."}, out);
  for (const model::CheckResult& c : report.checks) {
    if (!c.measured) continue;
    fmt::print(out, "durprobe_check_measured{{path=\"{}\",rule=\"{}\",unit=\"{}\"}} {}\n",
               PromLabel(c.path), PromLabel(c.rule), PromLabel(model::NameOf(c.unit)),
               Num(*c.measured));
  }
  Header({"durprobe_check_threshold", "gauge", "A rule's threshold, in its unit."}, out);
  for (const model::CheckResult& c : report.checks) {
    if (c.outcome == model::CheckOutcome::kSkipped) continue;
    fmt::print(out, "durprobe_check_threshold{{path=\"{}\",rule=\"{}\",unit=\"{}\"}} {}\n",
               PromLabel(c.path), PromLabel(c.rule), PromLabel(model::NameOf(c.unit)),
               Num(c.threshold));
  }
}

void WriteFindings(const model::Report& report, std::ostream& out) {
  Header({"durprobe_finding", "gauge", "1 for each finding on a path (see docs/findings.md)."},
         out);
  for (const model::Target& t : report.targets) {
    std::set<std::string> seen;
    for (const model::Finding& f : t.findings) {
      if (!seen.insert(f.code).second) continue;
      fmt::print(out, "durprobe_finding{{path=\"{}\",code=\"{}\",severity=\"{}\"}} 1\n",
                 PromLabel(t.path), PromLabel(f.code), NameOf(f.severity));
    }
  }
}

// faults: whether each failed write was reported and a retry was unsafe, and SQLite's outcome,
// with the filesystem and its options as labels (docs/fsync-errors.md).
void WriteFsyncErrors(const model::Report& report, std::ostream& out) {
  bool any = false;
  for (const model::Target& t : report.targets) any = any || !t.fsync_errors.empty();
  if (!any) return;
  auto labels = [](const model::Target& t, const probes::FsyncErrorsResult& r) {
    return fmt::format("path=\"{}\",filesystem=\"{}\",mount_options=\"{}\"", PromLabel(t.path),
                       PromLabel(r.fs), PromLabel(r.fs_options));
  };
  Header({"durprobe_fsync_error_reported", "gauge",
          "1 when the sync (or the write) after a failed block write reported it, 0 when not."},
         out);
  for (const model::Target& t : report.targets) {
    for (const probes::FsyncErrorsResult& r : t.fsync_errors) {
      for (const probes::FsyncErrorOutcome& o : r.outcomes) {
        if (o.status != probes::Outcome::kOk || o.reporting == probes::Reporting::kUnknown) {
          continue;
        }
        fmt::print(out, "durprobe_fsync_error_reported{{{},fault=\"{}\",sync=\"{}\"}} {}\n",
                   labels(t, r), probes::NameOf(o.fault), PromLabel(o.sync),
                   o.reporting == probes::Reporting::kNotReported ? 0 : 1);
      }
    }
  }
  Header({"durprobe_fsync_retry_unsafe", "gauge",
          "1 when a retried sync returned success with the failed page never written."},
         out);
  for (const model::Target& t : report.targets) {
    for (const probes::FsyncErrorsResult& r : t.fsync_errors) {
      for (const probes::FsyncErrorOutcome& o : r.outcomes) {
        if (o.status != probes::Outcome::kOk || o.fault == probes::FaultKind::kMetadata) continue;
        fmt::print(out, "durprobe_fsync_retry_unsafe{{{},fault=\"{}\",sync=\"{}\"}} {}\n",
                   labels(t, r), probes::NameOf(o.fault), PromLabel(o.sync),
                   analysis::RetryUnsafe(o) ? 1 : 0);
      }
    }
  }
  Header({"durprobe_sqlite_sync_failure", "gauge",
          "1 per SQLite commit whose sync failed, labelled with what a new connection found."},
         out);
  for (const model::Target& t : report.targets) {
    for (const probes::FsyncErrorsResult& r : t.fsync_errors) {
      for (const probes::SqliteSyncFailure& f : r.sqlite) {
        if (f.status != probes::Outcome::kOk) continue;
        fmt::print(out,
                   "durprobe_sqlite_sync_failure{{{},journal_mode=\"{}\",reopened=\"{}\","
                   "after_remount=\"{}\"}} 1\n",
                   labels(t, r), PromLabel(f.journal_mode), PromLabel(f.reopened),
                   PromLabel(f.remounted));
      }
    }
  }
}

}  // namespace

const std::vector<double>& SyncLatencyBuckets() {
  static const std::vector<double> bounds = [] {
    std::vector<double> b = {0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005};
    for (double le = 0.001; le < 9.0; le *= 2) b.push_back(le);  // etcd's: 0.001 .. 8.192
    return b;
  }();
  return bounds;
}

std::optional<std::int64_t> EpochSeconds(std::string_view s) {
  int y, mo, d, h, mi, sec;
  char tail[16] = {0};
  std::string text(s);
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%15s", &y, &mo, &d, &h, &mi, &sec, tail) <
      6) {
    return std::nullopt;
  }
  std::string_view rest(tail);
  if (!rest.empty() && rest.front() == '.') {  // fractional seconds
    std::size_t end = rest.find_first_not_of("0123456789", 1);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
  }
  std::int64_t offset = 0;
  if (rest.size() == 6 && (rest[0] == '+' || rest[0] == '-')) {
    int oh = 0, om = 0;
    if (std::sscanf(std::string(rest.substr(1)).c_str(), "%2d:%2d", &oh, &om) != 2)
      return std::nullopt;
    offset = (rest[0] == '+' ? 1 : -1) * (oh * 3600 + om * 60);
  } else if (!rest.empty() && rest != "Z") {
    return std::nullopt;
  }
  // Days from the civil date (Howard Hinnant's algorithm).
  y -= mo <= 2;
  std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  std::int64_t yoe = y - era * 400;
  std::int64_t doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  std::int64_t days = era * 146097 + doe - 719468;
  return days * 86400 + h * 3600 + mi * 60 + sec - offset;
}

std::string PromLabel(std::string_view value) {
  // The exposition format wants UTF-8 and has escapes for \\, " and newline only: other control
  // characters are shown as the console shows them (\x1b), as text, so no raw one reaches a
  // scrape or a terminal; the report's JSON keeps the exact bytes.
  std::string out;
  for (char c : EscapeControlChars(value, text::LineBreaks::kKeep)) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

Status PrometheusReporter::Write(const model::Report& report, std::ostream& out) const {
  WriteHistograms(report, out);
  WriteFlushes(report, out);
  WriteCommits(report, out);
  WriteChecks(report, out);
  WriteFindings(report, out);
  WriteFsyncErrors(report, out);
  Header({"durprobe_last_run_timestamp_seconds", "gauge",
          "When the run that wrote this file started, seconds since the epoch."},
         out);
  std::optional<std::int64_t> at = EpochSeconds(report.context.started_at);
  if (!at) {
    return Status::InvalidArgument("the report's start time '" + report.context.started_at +
                                   "' is not ISO-8601");
  }
  fmt::print(out, "durprobe_last_run_timestamp_seconds {}\n", *at);
  return Status::Ok();
}

}  // namespace durprobe::render::prometheus
