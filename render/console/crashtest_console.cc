#include "render/console/crashtest_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "text/table.h"
#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::render::console {
namespace {

using sqlite_bench::CrashtestResult;

std::string Of(std::uint64_t n, std::uint64_t of) { return fmt::format("{}/{}", n, of); }

std::string Agrees(const CrashtestResult& r) {
  if (!r.agrees_with_crashsim) return "-";
  return *r.agrees_with_crashsim ? "agrees" : "differs";
}

// The log a row's states were chosen from, which a rebuild names (--log); older reports have none.
std::string LogWords(const CrashtestResult& r) {
  return r.log.empty() ? "" : fmt::format(" (log {})", text::EscapeControlChars(r.log));
}

}  // namespace

void PrintCrashtestTable(const std::vector<CrashtestResult>& results, std::ostream& out) {
  if (results.empty()) return;
  const CrashtestResult& first = results.front();
  fmt::print(out,
             "\nPower cuts on the crash device ({}{}, device {}, seed {}; each state mounted and "
             "opened with plain SQLite):\n",
             text::EscapeControlChars(first.fs.empty() ? "?" : first.fs),
             first.fs_options.empty() ? "" : " -o " + text::EscapeControlChars(first.fs_options),
             first.device, first.seed);
  text::Table table({{"journal", text::Align::kLeft},
                     {"sync", text::Align::kLeft},
                     {"rows"},
                     {"commits"},
                     {"flushes"},
                     {"states", text::Align::kRight, 1},
                     {"distinct", text::Align::kRight, 4},
                     {"corrupt"},
                     {"lost (states)"},
                     {"lost max"},
                     {"crashsim", text::Align::kLeft, 3}});
  std::uint64_t states = 0, ns = 0;
  std::vector<std::string> notes;
  for (const CrashtestResult& r : results) {
    std::string journal(sqlite_bench::NameOf(r.config.journal));
    std::string sync(sqlite_bench::NameOf(r.config.sync));
    std::string rows = fmt::format("{}", r.config.rows_per_commit);
    if (r.outcome != probes::Outcome::kOk && r.states == 0) {
      table.AddSpanRow({journal, sync, rows}, text::EscapeControlChars(fmt::format(
                                                  "{}: {}", probes::NameOf(r.outcome), r.reason)));
      continue;
    }
    states += r.states;
    ns += r.ns;
    table.AddRow({journal, sync, rows, text::CountText(r.commits), text::CountText(r.flushes),
                  text::CountText(r.states), text::CountText(r.distinct), Of(r.corrupt, r.states),
                  Of(r.lost_states, r.states - r.corrupt), text::CountText(r.lost_max), Agrees(r)});
    for (const sqlite_bench::CrashtestExample& e : r.examples) {
      notes.push_back(fmt::format("{}/{} x{}{}: {}: {}", journal, sync, r.config.rows_per_commit,
                                  LogWords(r), e.state, e.outcome));
    }
    if (r.outcome != probes::Outcome::kOk) {
      notes.push_back(fmt::format("{}/{}: {} after {} states: {}", journal, sync,
                                  probes::NameOf(r.outcome), r.states, r.reason));
    }
  }
  table.Print(out);
  for (const std::string& n : notes) fmt::print(out, "  note: {}\n", text::EscapeControlChars(n));
  fmt::print(out,
             "  {} states in {} ({:.0f} a minute). A state is the disk at a flush, with a seeded "
             "choice of\n"
             "  the writes still in the device's cache; corrupt: the mount failed, "
             "integrity_check failed or a\n"
             "  commit is half there; lost: acknowledged commits missing; crashsim: whether "
             "its model found the\n"
             "  same (none lost, commits lost, corrupt). Rebuild a noted state from its words "
             "and log:\n"
             "  --state WORDS --log LOG (docs/crashtest.md)\n",
             text::CountText(states), text::FormatNanos(double(ns)),
             ns > 0 ? double(states) * 60e9 / double(ns) : 0.0);
}

}  // namespace durprobe::render::console
