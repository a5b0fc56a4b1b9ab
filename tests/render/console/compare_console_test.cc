// compare's console text: a p50 and a ratio column per path, ratios that read at a glance, the
// components as sums of the rows shown, and the verdicts.
#include "render/console/compare_console.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tests/compare_samples.h"
#include "tests/verdicts.h"
#include "text/line_width.h"

namespace durprobe::render::console {
namespace {

using testing_support::PathWith;

TEST(CompareConsoleTest, ExactText) {
  explain::Comparison c;
  c.targets = {PathWith("/volume", 1, 1, 1), PathWith("/share", 1.1, 12, 1.2),
               PathWith("/ram", 0.0007, 1, 1)};
  platform::MountInfo share;
  share.fstype = "virtiofs";
  c.targets[1].mount = share;
  testing_support::MarkNotDurable(c.targets[2], "sync_noop_memory_fs");
  c.targets[2].findings.back().message = "tmpfs keeps files in memory";
  c.verdicts = explain::CompareVerdicts(c.targets);
  std::ostringstream out;
  PrintComparison(c, out);
  EXPECT_EQ(out.str(),
            "Summary:\n"
            "  [1] /volume: the baseline; durability not assessed\n"
            "  [2] /share: per_op penalty (12.0x); durability not assessed\n"
            "  [3] /ram: faster because it keeps nothing (1/1400x); not_durable\n"
            "\n"
            "Median latency per operation; ratios against the first path.\n"
            "  [1] /volume\n"
            "  [2] /share\n"
            "  [3] /ram\n"
            "\n"
            "probe                         [1] p50  [2] p50  [2]/[1]  [3] p50  [3]/[1]\n"
            "fdatasync overwrite 4 KiB      101 us   122 us    1.21x  1.07 us    1/94x\n"
            "dir_fsync create              50.0 us  60.0 us    1.20x  50.0 us    1.00x\n"
            "dir_fsync create (sync call)  40.0 us  48.0 us    1.20x  40.0 us    1.00x\n"
            "op write                      1.00 us  12.0 us    12.0x  1.00 us    1.00x\n"
            "op read                        500 ns  6.00 us    12.0x   500 ns    1.00x\n"
            "op open_close                 1.50 us  18.0 us    12.0x  1.50 us    1.00x\n"
            "op stat                        800 ns  9.60 us    12.0x   800 ns    1.00x\n"
            "op create                     5.00 us  6.00 us    1.20x  5.00 us    1.00x\n"
            "op rename                     4.00 us  4.80 us    1.20x  4.00 us    1.00x\n"
            "\n"
            "Where the difference comes from (sums of the medians above):\n"
            "  path  per sync   per op  metadata\n"
            "  [1]     100 us  3.80 us   49.0 us\n"
            "  [2]     110 us  45.6 us   58.8 us\n"
            "  [3]      70 ns  3.80 us   49.0 us\n"
            "  per sync = fdatasync overwrite - op write; per op = op write + op read + op "
            "open_close + op stat;\n"
            "  metadata = op create + op rename + dir_fsync create (sync call: the directory fsync "
            "alone)\n"
            "\n"
            "verdict for /share: per_op penalty\n"
            "  plain file operations (write + read + open/close + stat): 12.0x the first path's "
            "(45.6 us vs 3.80 us; noise bounds 11.5x to 12.5x); every file operation is a round "
            "trip to the host (virtiofs): "
            "keep the database on a volume inside the VM or container, not on a host share\n"
            "\n"
            "verdict for /ram: faster because it keeps nothing\n"
            "  syncs here do not reach stable storage (sync_noop_memory_fs): this path is faster "
            "because it keeps nothing across a power loss or crash, not a cheaper place for a "
            "database (a sync: 70 ns vs 100 us)\n"
            "  [fail] /ram sync_noop_memory_fs: tmpfs keeps files in memory\n");
}

// Issue 57: run and check end with a recap on a terminal, compare did not, so its answer
// scrolled away under the tables. Piped output has its top at hand and no recap.
TEST(CompareConsoleTest, OnATerminalTheComparisonEndsWithARecapOfItsSummary) {
  explain::Comparison c;
  c.targets = {PathWith("/volume", 1, 1, 1), PathWith("/share", 1.1, 12, 1.2)};
  c.verdicts = explain::CompareVerdicts(c.targets);
  std::ostringstream terminal;
  text::SetLineWidth(terminal, 200);
  PrintComparison(c, terminal);
  const std::string text = terminal.str();
  const std::string summary =
      "  [1] /volume: the baseline; durability not assessed\n"
      "  [2] /share: per_op penalty (12.0x); durability not assessed\n";
  const std::size_t recap = text.find("\nRecap (the Summary above, in short):\n" + summary);
  ASSERT_NE(recap, std::string::npos) << text;
  EXPECT_EQ(recap + std::string("\nRecap (the Summary above, in short):\n").size() + summary.size(),
            text.size())
      << "the recap is the last thing printed:\n"
      << text;
  std::ostringstream piped;
  PrintComparison(c, piped);
  EXPECT_EQ(piped.str().find("Recap"), std::string::npos) << piped.str();
}

}  // namespace
}  // namespace durprobe::render::console
