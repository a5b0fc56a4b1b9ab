// Every header of the rooms that hold results, their analysis and their formats (text/ to
// output/), included here before anything else: SQLITE_VERSION (defined by <sqlite3.h>) must
// stay undefined after them, so the compiler catches SQLite reached through a path the layering
// test's scan of the quoted includes does not follow (a system header). The test below holds the
// list to the tree: a new header of these rooms is added here or fails it. Compiled on its own,
// outside the unity batches (tests/CMakeLists.txt), so nothing else comes first.
#include "analysis/budget_findings.h"
#include "analysis/concurrency_findings.h"
#include "analysis/crashtest_agreement.h"
#include "analysis/decision.h"
#include "analysis/device_flushes.h"
#include "analysis/device_states.h"
#include "analysis/drift.h"
#include "analysis/drift_level.h"
#include "analysis/durability_model.h"
#include "analysis/durability_risk.h"
#include "analysis/ebs_findings.h"
#include "analysis/fsync_error_meaning.h"
#include "analysis/load_findings.h"
#include "analysis/mount_findings.h"
#include "analysis/neighbours.h"
#include "analysis/plausibility.h"
#include "analysis/powercut_verdict.h"
#include "analysis/probe_drift.h"
#include "analysis/probe_findings.h"
#include "analysis/sqlite_correlation.h"
#include "analysis/watch_files.h"
#include "analysis/watch_report.h"
#include "analysis/watch_sqlite.h"
#include "codec/check_json.h"
#include "codec/concurrency_json.h"
#include "codec/concurrency_json_reader.h"
#include "codec/crashsim_json.h"
#include "codec/crashsim_json_reader.h"
#include "codec/crashtest_json.h"
#include "codec/durability_json.h"
#include "codec/ebs_json.h"
#include "codec/flush_json.h"
#include "codec/fsync_errors_json.h"
#include "codec/json_fields.h"
#include "codec/json_reader.h"
#include "codec/json_reader_sections.h"
#include "codec/json_text.h"
#include "codec/mount_json.h"
#include "codec/mount_json_reader.h"
#include "codec/path_summary_json.h"
#include "codec/powercut_json.h"
#include "codec/repeats_json.h"
#include "codec/report_json.h"
#include "codec/sqlite_json.h"
#include "codec/sqlite_json_reader.h"
#include "codec/sqlite_workloads_json.h"
#include "codec/sqlite_workloads_json_reader.h"
#include "codec/watch_json.h"
#include "explain/cause_conditions.h"
#include "explain/cause_matchers.h"
#include "explain/cause_signature.h"
#include "explain/cause_table.h"
#include "explain/causes.h"
#include "explain/compare_advice.h"
#include "explain/compare_analysis.h"
#include "explain/compare_loss.h"
#include "explain/compare_states.h"
#include "explain/diff_analysis.h"
#include "explain/diff_differences.h"
#include "explain/diff_probes.h"
#include "explain/layer_sync_findings.h"
#include "explain/path_advice.h"
#include "explain/path_summary.h"
#include "explain/summary.h"
#include "explain/trial.h"
#include "gate/concurrency_rule.h"
#include "gate/drift_range.h"
#include "gate/facts.h"
#include "gate/latency_decision.h"
#include "gate/policy.h"
#include "gate/policy_document.h"
#include "gate/policy_reader.h"
#include "gate/presets.h"
#include "gate/rules.h"
#include "gate/wal_sync_method.h"
#include "model/concurrency_model.h"
#include "model/durability.h"
#include "model/finding_codes.h"
#include "model/labels.h"
#include "model/names.h"
#include "model/path_summary_model.h"
#include "model/percentiles.h"
#include "model/powercut.h"
#include "model/repeats.h"
#include "model/report.h"
#include "model/run_events.h"
#include "model/sqlite_model.h"
#include "model/watch.h"
#include "output/formats.h"
#include "output/output.h"
#include "render/console/causes_console.h"
#include "render/console/check_console.h"
#include "render/console/compare_console.h"
#include "render/console/concurrency_console.h"
#include "render/console/console_reporter.h"
#include "render/console/crashsim_console.h"
#include "render/console/crashtest_console.h"
#include "render/console/diff_console.h"
#include "render/console/fsync_errors_console.h"
#include "render/console/mount_console.h"
#include "render/console/path_summary_console.h"
#include "render/console/pg_console.h"
#include "render/console/powercut_console.h"
#include "render/console/progress_console.h"
#include "render/console/repeat_cells.h"
#include "render/console/sqlite_console.h"
#include "render/console/sqlite_workloads_console.h"
#include "render/console/summary_console.h"
#include "render/console/table_notes.h"
#include "render/console/watch_console.h"
#include "render/csv/csv_reporter.h"
#include "render/csv/summary_csv.h"
#include "render/durability_lines.h"
#include "render/flat_rows.h"
#include "render/flush_text.h"
#include "render/fsync_error_rows.h"
#include "render/html/html_compare.h"
#include "render/html/html_concurrency.h"
#include "render/html/html_crashsim.h"
#include "render/html/html_crashtest.h"
#include "render/html/html_fsync_errors.h"
#include "render/html/html_page.h"
#include "render/html/html_probes.h"
#include "render/html/html_reporter.h"
#include "render/html/html_sqlite.h"
#include "render/html/html_summary.h"
#include "render/html/html_text.h"
#include "render/html/html_timeline.h"
#include "render/html/svg_bars.h"
#include "render/html/svg_plot.h"
#include "render/html/svg_scale.h"
#include "render/html/svg_shared.h"
#include "render/json/causes_json.h"
#include "render/json/compare_json.h"
#include "render/json/diff_json.h"
#include "render/json/json_reporter.h"
#include "render/json/summary_json.h"
#include "render/junit/junit_reporter.h"
#include "render/limit_rows.h"
#include "render/markdown/markdown_reporter.h"
#include "render/mount_rows.h"
#include "render/prometheus/prometheus_reporter.h"
#include "render/prometheus/watch_prometheus.h"
#include "render/reporter.h"
#include "render/summary_text.h"
#include "text/json_scan.h"
#include "text/line_width.h"
#include "text/shell_quote.h"
#include "text/table.h"
#include "text/units.h"
#include "text/utf8.h"
#include "text/xml_escape.h"

#ifdef SQLITE_VERSION
#error "a header above the measurement includes <sqlite3.h>: it must read plain result structs"
#endif

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "tests/room_files.h"

namespace durprobe {
namespace {

TEST(RoomHeadersTest, EveryHeaderFromTextToOutputIsIncludedHere) {
  const std::filesystem::path root = DURPROBE_SOURCE_DIR;
  const std::set<std::string> rooms = {"text",  "model",   "analysis", "gate",
                                       "codec", "explain", "render",   "output"};
  std::ifstream self(root / "tests/room_headers_test.cc");
  const std::regex include(R"re(^#include "([^"]+)")re");
  std::set<std::string> included;
  std::smatch m;
  for (std::string line; std::getline(self, line);) {
    if (std::regex_search(line, m, include)) included.insert(m[1]);
  }
  int headers = 0;
  for (const std::string& file : testing_support::ProjectFiles(root)) {
    std::string room = testing_support::RoomOf(file);
    room = room.substr(0, room.find('/'));
    if (!rooms.count(room) || std::filesystem::path(file).extension() != ".h") continue;
    EXPECT_TRUE(included.count(file)) << file << " is not included by tests/room_headers_test.cc";
    ++headers;
  }
  EXPECT_GT(headers, 130);
}

}  // namespace
}  // namespace durprobe
