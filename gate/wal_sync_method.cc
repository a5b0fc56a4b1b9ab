#include "gate/wal_sync_method.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <optional>

#include "text/table.h"
#include "text/units.h"

namespace durprobe::gate {
namespace {

using probes::Pattern;
using probes::Primitive;
using probes::ProbeSpec;

constexpr const char* kRule = "postgres_wal_sync_method";
constexpr const char* kOneWrite = "1 x 8 KiB";
constexpr const char* kTwoWrites = "2 x 8 KiB";

struct Method {
  const char* name;
  Primitive primitive;
};
constexpr Method kMethods[] = {{"open_datasync", Primitive::kOdsync},
                               {"fdatasync", Primitive::kFdatasync},
                               {"fsync", Primitive::kFsync},
                               {"open_sync", Primitive::kOsync}};

ProbeSpec Spec(Primitive p, std::uint64_t size, std::uint32_t writes) {
  return {
      .primitive = p, .pattern = Pattern::kOverwrite, .write_size = size, .writes_per_op = writes};
}

// The cells' probes, each once, in table order.
std::vector<ProbeSpec> DistinctSpecs(const std::vector<WalSyncCell>& cells) {
  std::vector<ProbeSpec> out;
  for (const WalSyncCell& c : cells) {
    if (std::find(out.begin(), out.end(), c.spec) == out.end()) out.push_back(c.spec);
  }
  return out;
}

// The rate of spec on t when it was measured, else unset.
std::optional<double> RateOf(const model::Target& t, const ProbeSpec& spec) {
  for (const probes::ProbeResult& r : t.probes) {
    if (r.spec == spec && r.outcome == probes::Outcome::kOk && r.ops > 0 && r.ops_per_sec > 0) {
      return r.ops_per_sec;
    }
  }
  return std::nullopt;
}

// A table cell: the rate, or why there is none.
std::string Cell(const model::Target& t, const ProbeSpec& spec) {
  if (std::optional<double> rate = RateOf(t, spec)) return text::FormatRate(*rate) + "/s";
  for (const probes::ProbeResult& r : t.probes) {
    if (r.spec == spec) return std::string(probes::NameOf(r.outcome));
  }
  return "not measured";
}

constexpr const char* kDefault = "fdatasync";  // PostgreSQL's default on Linux

const model::CheckResult* FindCheck(const model::Report& report, const std::string& path) {
  for (const model::CheckResult& c : report.checks) {
    if (c.rule == kRule && c.path == path) return &c;
  }
  return nullptr;
}

}  // namespace

const std::vector<WalSyncCell>& WalSyncCells() {
  static const std::vector<WalSyncCell> cells = [] {
    std::vector<WalSyncCell> out;
    for (const Method& m : kMethods) out.push_back({kOneWrite, m.name, Spec(m.primitive, 8192, 1)});
    for (const Method& m : kMethods)
      out.push_back({kTwoWrites, m.name, Spec(m.primitive, 8192, 2)});
    out.push_back({"16 KiB as 1 x 16 KiB", "open_sync", Spec(Primitive::kOsync, 16384, 1)});
    out.push_back({"16 KiB as 2 x 8 KiB", "open_sync", Spec(Primitive::kOsync, 8192, 2)});
    out.push_back({"16 KiB as 4 x 4 KiB", "open_sync", Spec(Primitive::kOsync, 4096, 4)});
    return out;
  }();
  return cells;
}

const std::vector<WalSyncCell>& PgTestFsyncCells() {
  static const std::vector<WalSyncCell> cells = [] {
    // pg_test_fsync opens the open_* methods with O_DIRECT where the OS has it.
    constexpr Method kPgMethods[] = {{"open_datasync", Primitive::kOdirectDsync},
                                     {"fdatasync", Primitive::kFdatasync},
                                     {"fsync", Primitive::kFsync},
                                     {"open_sync", Primitive::kOdirectSync}};
    const char* one = "Compare file sync methods using one 8kB write";
    const char* two = "Compare file sync methods using two 8kB writes";
    const char* sizes = "Compare open_sync with different write sizes";
    std::vector<WalSyncCell> out;
    for (const Method& m : kPgMethods) out.push_back({one, m.name, Spec(m.primitive, 8192, 1)});
    for (const Method& m : kPgMethods) out.push_back({two, m.name, Spec(m.primitive, 8192, 2)});
    for (std::uint32_t writes : {1u, 2u, 4u, 8u, 16u}) {
      std::uint64_t size = 16384 / writes;
      out.push_back({sizes,
                     fmt::format("{:>2} * {:>2}kB open_sync write{}", writes, size / 1024,
                                 writes == 1 ? "" : "s"),
                     Spec(Primitive::kOdirectSync, size, writes)});
    }
    out.push_back({"Non-sync'ed 8kB writes", "write", Spec(Primitive::kNone, 8192, 1)});
    return out;
  }();
  return cells;
}

std::vector<ProbeSpec> PgTestFsyncSpecs() { return DistinctSpecs(PgTestFsyncCells()); }

std::vector<ProbeSpec> WalSyncMethodSpecs() { return DistinctSpecs(WalSyncCells()); }

WalSyncChoice ChooseWalSyncMethod(const model::Target& t) {
  WalSyncChoice out;
  for (const Method& m : kMethods) {
    std::optional<double> one = RateOf(t, Spec(m.primitive, 8192, 1));
    std::optional<double> two = RateOf(t, Spec(m.primitive, 8192, 2));
    if (one && two) out.ranked.push_back({m.name, 2.0 / (1.0 / *one + 1.0 / *two)});
  }
  std::stable_sort(out.ranked.begin(), out.ranked.end(),
                   [](const auto& a, const auto& b) { return a.rate > b.rate; });
  if (out.ranked.size() < 2) return out;
  out.method = out.ranked[0].method;
  const auto fallback = std::find_if(out.ranked.begin(), out.ranked.end(),
                                     [](const auto& r) { return r.method == kDefault; });
  if (fallback != out.ranked.end() && out.ranked[0].rate < fallback->rate * kWalSyncClearMargin) {
    out.kept_default = out.method != kDefault;
    out.method = kDefault;
  }
  return out;
}

model::CheckResult RecommendWalSyncMethod(const model::Target& t) {
  model::CheckResult c;
  c.rule = kRule;
  c.path = t.path;
  c.unit = model::CheckUnit::kOpsPerSec;
  c.comparison = model::CheckComparison::kAtLeast;
  WalSyncChoice choice = ChooseWalSyncMethod(t);
  if (choice.method.empty()) {
    c.message = fmt::format(
        "only {} of the 4 wal_sync_methods had both 8 KiB comparisons (one and two writes per "
        "sync) measured",
        choice.ranked.size());
    return c;
  }
  const auto& ranked = choice.ranked;
  const auto chosen = std::find_if(ranked.begin(), ranked.end(),
                                   [&](const auto& r) { return r.method == choice.method; });
  const auto& other = chosen == ranked.begin() ? ranked[1] : ranked[0];
  c.outcome = model::CheckOutcome::kPass;
  c.measured = chosen->rate;
  // The default kept passes on being within the margin of the fastest; a winner on beating the
  // runner-up.
  c.threshold = choice.kept_default ? other.rate / kWalSyncClearMargin : other.rate;
  std::string list;
  for (const auto& r : ranked) {
    list += fmt::format("{}{} {}/s", list.empty() ? "" : ", ", r.method, text::FormatRate(r.rate));
  }
  std::string why =
      choice.kept_default
          ? fmt::format(": keep the default: {} is only {} faster, under the {} a change needs",
                        other.method, text::FormatRatio(other.rate / chosen->rate),
                        text::FormatRatio(kWalSyncClearMargin))
          : fmt::format(" wins, {} the runner-up {}", text::FormatRatio(chosen->rate / other.rate),
                        other.method);
  c.message =
      fmt::format("wal_sync_method = {}{} (harmonic mean of the 1 x 8 KiB and 2 x 8 KiB rates: {})",
                  choice.method, why, list);
  return c;
}

void PrintWalSyncTables(const model::Report& report, std::ostream& out) {
  for (const model::Target& t : report.targets) {
    const model::CheckResult* check = FindCheck(report, t.path);
    if (check == nullptr) continue;
    fmt::print(out,
               "\npg_test_fsync's comparisons on {} (operations per second; an operation is the "
               "writes, then one sync):\n",
               t.path);
    std::vector<text::Column> columns = {{"writes per operation", text::Align::kLeft}};
    for (const Method& m : kMethods) columns.push_back({m.name});
    text::Table table(columns, 2);
    std::vector<std::string> row;
    for (const WalSyncCell& cell : WalSyncCells()) {
      if (row.empty() || row[0] != cell.row) {
        if (!row.empty()) table.AddRow(row);
        row.assign(1 + std::size(kMethods), "");
        row[0] = cell.row;
      }
      for (std::size_t i = 0; i < std::size(kMethods); ++i) {
        if (kMethods[i].name == cell.method) row[1 + i] = Cell(t, cell.spec);
      }
    }
    table.AddRow(row);
    table.Print(out);
    fmt::print(out, "  {}\n",
               check->outcome == model::CheckOutcome::kPass
                   ? check->message
                   : "no recommendation: " + check->message);
  }
}

}  // namespace durprobe::gate
