#include "render/console/concurrency_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "model/percentiles.h"
#include "text/table.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::render::console {
namespace {

void PrintTable(const std::vector<probes::ConcurrencyResult>& rows, std::ostream& out) {
  const probes::ConcurrencySpec& first = rows.front().spec;
  fmt::print(out,
             "\nConcurrent syncers ({} {} overwrites; scaling: aggregate against one writer of "
             "the same mode):\n",
             probes::NameOf(first.primitive), text::FormatBytes(first.write_size));
  text::Table table({{"mode", text::Align::kLeft},
                     {"writers"},
                     {"ops"},
                     {"aggregate ops/s"},
                     {"scaling"},
                     {"sync p50"},
                     {"sync p99"}});
  for (const probes::ConcurrencyResult& r : rows) {
    std::string mode(probes::NameOf(r.spec.mode));
    std::string writers = fmt::format("{}", r.spec.writers);
    if (r.outcome != probes::Outcome::kOk || r.ops == 0) {
      table.AddSpanRow({mode, writers}, fmt::format("{}: {}", probes::NameOf(r.outcome),
                                                    r.reason.empty() ? "no operations" : r.reason));
      continue;
    }
    table.AddRow({mode, writers, fmt::format("{}", r.ops),
                  text::FormatRate(r.aggregate_ops_per_sec),
                  r.scaling > 0 ? text::FormatRatio(r.scaling) : std::string("-"),
                  text::NanosCell(r.latency.p50), text::PercentileCell(model::P99(r.latency))});
  }
  table.Print(out);
}

void PrintSerialVsConcurrent(const model::SerialVsConcurrent& s, std::ostream& out) {
  const probes::QueueDepthResult& q = s.concurrent;
  fmt::print(out, "\nSerial versus concurrent ({} writes):\n", text::FormatBytes(q.write_size));
  if (q.outcome != probes::Outcome::kOk || q.ops == 0) {
    fmt::print(out, "  queue depth {}, O_DIRECT, no sync: {}: {}\n", q.queue_depth,
               probes::NameOf(q.outcome), text::EscapeControlChars(q.reason));
    return;
  }
  fmt::print(out, "  random, queue depth {}, O_DIRECT, no sync ({}): {}/s, p50 {}\n", q.queue_depth,
             text::EscapeControlChars(q.engine), text::FormatRate(q.ops_per_sec),
             text::NanosCell(q.latency.p50));
  if (s.serial_ops_per_sec > 0) {
    fmt::print(out, "  serial synced ({}): {}/s\n", text::EscapeControlChars(s.serial_label),
               text::FormatRate(s.serial_ops_per_sec));
    fmt::print(out, "  ratio: {} (a spec sheet's IOPS against what one committer sees)\n",
               text::FormatRatio(s.ratio));
  }
}

}  // namespace

void PrintConcurrency(const model::Target& t, std::ostream& out) {
  if (!t.concurrency.empty()) PrintTable(t.concurrency, out);
  if (t.serial_vs_concurrent) PrintSerialVsConcurrent(*t.serial_vs_concurrent, out);
}

}  // namespace durprobe::render::console
