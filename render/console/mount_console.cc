#include "render/console/mount_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "text/units.h"
#include "text/utf8.h"

namespace durprobe::render::console {
namespace {

constexpr const char* kMountRow = "  {:<11} {}\n";

}  // namespace

void PrintMountBlock(const platform::MountInfo& m, std::ostream& out) {
  for (const MountRow& row : MountRows(m)) {
    fmt::print(out, kMountRow, row.label, text::EscapeControlChars(row.text));
  }
}

void PrintEnvironment(const model::Context& c, std::ostream& out) {
  fmt::print(out, "LD_PRELOAD: {}\n",
             c.ld_preload.empty() ? "(not set)" : text::EscapeControlChars(c.ld_preload));
  const sqlite_bench::SqliteBuildInfo& b = c.sqlite_build;
  fmt::print(out,
             "SQLite {} built with synchronous={} (WAL: {}), directory syncs {}, "
             "WAL autocheckpoint {} pages\n",
             text::EscapeControlChars(c.sqlite_version), b.default_synchronous,
             b.default_wal_synchronous, b.dirsync ? "on" : "off (SQLITE_DISABLE_DIRSYNC)",
             b.default_wal_autocheckpoint);
}

}  // namespace durprobe::render::console
