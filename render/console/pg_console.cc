#include "render/console/pg_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <memory>

#include "gate/wal_sync_method.h"
#include "model/percentiles.h"
#include "text/table.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::render::console {
namespace {

const probes::ProbeResult* Measured(const model::Target& t, const probes::ProbeSpec& spec) {
  for (const probes::ProbeResult& r : t.probes) {
    if (r.spec == spec) return &r;
  }
  return nullptr;
}

text::Table PgTable() {
  // On a narrow terminal the tail goes first; the method, its rate and time per op stay.
  return text::Table({{"method", text::Align::kLeft},
                      {"ops/s"},
                      {"per op"},
                      {"p50", text::Align::kRight, 2},
                      {"p99", text::Align::kRight, 1}},
                     2);
}

}  // namespace

bool PgTestFsyncRun(const model::Context& context) {
  auto pg = context.options.find("pg_test_fsync");
  return pg != context.options.end() && pg->is_boolean() && pg->get<bool>();
}

void PrintPgTestFsync(const model::Target& t, std::ostream& out) {
  bool any = false;
  for (const gate::WalSyncCell& cell : gate::PgTestFsyncCells())
    any = any || Measured(t, cell.spec);
  if (!any) return;
  fmt::print(out,
             "\npg_test_fsync's table (an operation is the writes, then one sync; per op = 1 s / "
             "ops/s, as pg_test_fsync's usecs/op):\n");
  std::unique_ptr<text::Table> table;
  std::string section;
  auto flush = [&] {
    if (table) table->Print(out);
  };
  for (const gate::WalSyncCell& cell : gate::PgTestFsyncCells()) {
    if (cell.row != section) {
      flush();
      section = cell.row;
      fmt::print(out, "{}:\n", text::EscapeControlChars(section));
      table = std::make_unique<text::Table>(PgTable());
    }
    const probes::ProbeResult* r = Measured(t, cell.spec);
    if (r == nullptr) {
      table->AddSpanRow({cell.method}, "not measured");
    } else if (r->outcome == probes::Outcome::kUnsupported) {
      table->AddSpanRow({cell.method}, "unsupported: " + r->reason);
    } else if (r->ops == 0 || r->ops_per_sec <= 0) {
      table->AddSpanRow({cell.method},
                        fmt::format("{}: {}", probes::NameOf(r->outcome), r->reason));
    } else {
      table->AddRow({cell.method, text::FormatRate(r->ops_per_sec),
                     text::FormatNanos(1e9 / r->ops_per_sec),
                     text::FormatNanos(static_cast<double>(r->latency.p50)),
                     text::PercentileCell(model::P99(r->latency))});
    }
  }
  flush();
}

}  // namespace durprobe::render::console
