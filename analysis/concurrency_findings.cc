#include "analysis/concurrency_findings.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/finding_codes.h"
#include "model/labels.h"
#include "text/units.h"

namespace durprobe::analysis {
namespace {

using probes::ConcurrencyResult;

bool Measured(const ConcurrencyResult& r) {
  return r.outcome == probes::Outcome::kOk && r.ops > 0 && r.aggregate_ops_per_sec > 0;
}

std::string ShapeNumbers(const ConcurrencyShape& s) {
  return fmt::format(
      "with {} writers ({}) the aggregate is {} one writer's and the median sync "
      "{} one writer's",
      s.writers, probes::NameOf(s.mode), text::FormatRatio(s.scaling),
      text::FormatRatio(s.latency_growth));
}

model::Finding Serialised(const ConcurrencyShape& s) {
  return {model::Severity::kInfo, model::codes::kConcurrentSyncsSerialise,
          fmt::format(
              "Concurrent syncs serialise here: {}, so the path completes about as many syncs "
              "per second however many writers ask. PostgreSQL's group commit (commit_delay, "
              "commit_siblings) is what raises commits per second on such a path, by making "
              "one flush carry several transactions; a single-writer WAL (etcd, SQLite) already "
              "gets what the path can give; several databases on this disk share one flush rate, "
              "so each one's commits slow as the others commit.",
              ShapeNumbers(s))};
}

model::Finding Merged(const ConcurrencyShape& s) {
  return {
      model::Severity::kInfo, model::codes::kConcurrentSyncsMerge,
      fmt::format("The filesystem or device merges concurrent syncs: {}. PostgreSQL's concurrent "
                  "backends get group commit from the path itself, so commit_delay adds little "
                  "but latency; a single-writer WAL (etcd, SQLite) leaves that throughput unused; "
                  "several databases on this disk slow each other little.",
                  ShapeNumbers(s))};
}

const probes::ProbeResult* SerialProbe(const model::Target& t, std::uint64_t size) {
  for (const probes::ProbeResult& p : t.probes) {
    if (p.spec.primitive == probes::Primitive::kFdatasync &&
        p.spec.pattern == probes::Pattern::kOverwrite && p.spec.write_size == size &&
        p.spec.writes_per_op == 1 && p.outcome == probes::Outcome::kOk && p.ops > 0) {
      return &p;
    }
  }
  return nullptr;
}

void FillSerial(const model::Target& t, model::SerialVsConcurrent& s) {
  const std::uint64_t size = s.concurrent.write_size;
  if (const probes::ProbeResult* p = SerialProbe(t, size)) {
    s.serial_label = model::ProbeLabel(p->spec);
    s.serial_ops_per_sec = p->ops_per_sec;
  } else {
    for (const ConcurrencyResult& r : t.concurrency) {
      if (r.spec.writers == 1 && r.spec.mode == probes::WriterMode::kThreads &&
          r.spec.write_size == size && Measured(r)) {
        s.serial_label = fmt::format("{} {} one writer", probes::NameOf(r.spec.primitive),
                                     text::FormatBytes(size));
        s.serial_ops_per_sec = r.aggregate_ops_per_sec;
        break;
      }
    }
  }
  const bool both = s.serial_ops_per_sec > 0 && s.concurrent.outcome == probes::Outcome::kOk &&
                    s.concurrent.ops_per_sec > 0;
  s.ratio = both ? s.concurrent.ops_per_sec / s.serial_ops_per_sec : 0.0;
}

}  // namespace

std::vector<ConcurrencyShape> ConcurrencyShapes(const std::vector<ConcurrencyResult>& rows) {
  std::vector<ConcurrencyShape> shapes;
  for (probes::WriterMode mode : probes::AllWriterModes()) {
    const ConcurrencyResult* one = nullptr;
    const ConcurrencyResult* most = nullptr;
    for (const ConcurrencyResult& r : rows) {
      if (r.spec.mode != mode || !Measured(r)) continue;
      if (r.spec.writers == 1 && one == nullptr) one = &r;
      if (r.spec.writers >= 2 && (most == nullptr || r.spec.writers > most->spec.writers)) {
        most = &r;
      }
    }
    if (one == nullptr || most == nullptr || one->latency.p50 == 0) continue;
    if (most->spec.primitive != one->spec.primitive) continue;
    ConcurrencyShape s;
    s.mode = mode;
    s.writers = most->spec.writers;
    s.scaling = most->aggregate_ops_per_sec / one->aggregate_ops_per_sec;
    s.latency_growth =
        static_cast<double>(most->latency.p50) / static_cast<double>(one->latency.p50);
    const double n = s.writers;
    s.serialised = s.scaling < 1.5 && s.latency_growth >= n / 2;
    s.merged = s.scaling >= std::max(1.5, n / 2) && s.latency_growth <= 2.0;
    shapes.push_back(s);
  }
  return shapes;
}

void AddConcurrencyFindings(model::Target& t) {
  for (const ConcurrencyShape& s : ConcurrencyShapes(t.concurrency)) {
    if (s.serialised) t.findings.push_back(Serialised(s));
    if (s.merged) t.findings.push_back(Merged(s));
  }
  if (!t.serial_vs_concurrent) return;
  model::SerialVsConcurrent& s = *t.serial_vs_concurrent;
  FillSerial(t, s);
  if (s.ratio <= 0) return;
  t.findings.push_back(
      {model::Severity::kInfo, model::codes::kSpecSheetIopsRatio,
       fmt::format("Random {} writes at queue depth {} without a sync (the IOPS a spec sheet "
                   "quotes) reach {}/s here ({}); serial synced {} writes ({}) reach {}/s, what "
                   "a database's commits see: the spec-sheet figure is {} it.",
                   text::FormatBytes(s.concurrent.write_size), s.concurrent.queue_depth,
                   text::FormatRate(s.concurrent.ops_per_sec), s.concurrent.engine,
                   text::FormatBytes(s.concurrent.write_size), s.serial_label,
                   text::FormatRate(s.serial_ops_per_sec), text::FormatRatio(s.ratio))});
}

}  // namespace durprobe::analysis
