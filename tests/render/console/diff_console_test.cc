// diff's console text: times with their units, the b/a ratio readable, shares of the gap.
#include "render/console/diff_console.h"

#include <gtest/gtest.h>

#include <sstream>

namespace durprobe::render::console {
namespace {

TEST(DiffConsoleTest, ExactText) {
  explain::Diff d;
  d.a_name = "a.json";
  d.b_name = "b.json";
  explain::ConfigDiff slow{.journal_mode = "DELETE",
                           .synchronous = "FULL",
                           .rows_per_commit = 1,
                           .commits_per_sec_a = 3700,
                           .commits_per_sec_b = 2.6,
                           .commit_ns_a = 270'270,
                           .commit_ns_b = 384'615'385,
                           .syncs_a = 4,
                           .syncs_b = 4,
                           .sync_ns_a = 121'340,
                           .sync_ns_b = 96'000'000,
                           .share_sync_latency = 0.998,
                           .share_sync_count = 0,
                           .share_non_sync = 0.002};
  explain::ConfigDiff same{.journal_mode = "WAL",
                           .synchronous = "OFF",
                           .rows_per_commit = 100,
                           .commits_per_sec_a = 12000,
                           .commits_per_sec_b = 12100,
                           .commit_ns_a = 83'333,
                           .commit_ns_b = 82'645};
  d.configs = {slow, same};
  d.differences = {{"mount.fstype", "ext4", "xfs"}};
  d.verdict = {explain::DiffFactor::kSyncLatency, "DELETE FULL (rows/commit 1): ..."};
  std::ostringstream out;
  PrintDiff(d, out);
  EXPECT_EQ(out.str(),
            "Summary: the gap is in sync_latency (verdict at the end)\n"
            "a = a.json\n"
            "b = b.json\n"
            "\n"
            "journal  sync  rows  stmt  payload  commits/s a  commits/s b      b/a  sync a   "
            "sync b  latency  count  non-sync\n"
            "DELETE   FULL     1          100 B        3,700          2.6  1/1400x  121 us  "
            "96.0 ms     100%     0%        0%\n"
            "WAL      OFF    100          100 B       12,000       12,100    1.01x       -        "
            "-        ~      ~         ~\n"
            "(sync a/b: time of one sync; latency / count / non-sync: shares of the commit-time "
            "gap b - a; they add up to 100%; ~: the two agree within 5%)\n"
            "\n"
            "Configuration differences:\n"
            "  mount.fstype                         a: ext4\n"
            "                                       b: xfs\n"
            "\n"
            "verdict: sync_latency\n"
            "  DELETE FULL (rows/commit 1): ...\n");
}

}  // namespace
}  // namespace durprobe::render::console
