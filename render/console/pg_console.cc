#include "render/console/pg_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <memory>

#include "gate/wal_sync_method.h"
#include "model/percentiles.h"
#include "text/table.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::report {
namespace {

const probes::ProbeResult* Measured(const Target& t, const probes::ProbeSpec& spec) {
  for (const probes::ProbeResult& r : t.probes) {
    if (r.spec == spec) return &r;
  }
  return nullptr;
}

Table PgTable() {
  // On a narrow terminal the tail goes first; the method, its rate and time per op stay.
  return Table({{"method", Align::kLeft},
                {"ops/s"},
                {"per op"},
                {"p50", Align::kRight, 2},
                {"p99", Align::kRight, 1}},
               2);
}

}  // namespace

bool PgTestFsyncRun(const Context& context) {
  auto pg = context.options.find("pg_test_fsync");
  return pg != context.options.end() && pg->is_boolean() && pg->get<bool>();
}

void PrintPgTestFsync(const Target& t, std::ostream& out) {
  bool any = false;
  for (const WalSyncCell& cell : PgTestFsyncCells()) any = any || Measured(t, cell.spec);
  if (!any) return;
  fmt::print(out,
             "\npg_test_fsync's table (an operation is the writes, then one sync; per op = 1 s / "
             "ops/s, as pg_test_fsync's usecs/op):\n");
  std::unique_ptr<Table> table;
  std::string section;
  auto flush = [&] {
    if (table) table->Print(out);
  };
  for (const WalSyncCell& cell : PgTestFsyncCells()) {
    if (cell.row != section) {
      flush();
      section = cell.row;
      fmt::print(out, "{}:\n", EscapeControlChars(section));
      table = std::make_unique<Table>(PgTable());
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
      table->AddRow({cell.method, FormatRate(r->ops_per_sec), FormatNanos(1e9 / r->ops_per_sec),
                     FormatNanos(static_cast<double>(r->latency.p50)),
                     PercentileCell(P99(r->latency))});
    }
  }
  flush();
}

}  // namespace durprobe::report
