// No figure without the operations behind it, read from every format of a real `run --quick` on
// the lab's mounts (a loop-backed ext4, a tmpfs, a bindfs FUSE mount): a percentile only from the
// operations that support it (p90 10, p99 100, p99.9 1,000), a confidence interval (console `±`,
// JSON `converged`) only from 20 operations over 0.5 s of timing. JSON, CSV, Markdown, Prometheus,
// the HTML table and the piped console are each read cell by cell; the counts the cells are
// checked against are the JSON's. Its first run found CSV's p90 written from one operation, and
// Prometheus quantiles and the HTML plot's tail marks written whatever the count.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/integration/lab_mounts.h"

namespace durprobe {
namespace {

using nlohmann::json;

struct Needs {
  const char* key;
  std::uint64_t ops;
};
constexpr Needs kPercentileNeeds[] = {{"p90", 10}, {"p99", 100}, {"p999", 1000}};

// A key of a latency object that is a number only where the count supports it.
void CheckLatency(const json& lat, const std::string& what) {
  if (!lat.is_object()) return;
  std::uint64_t n = lat.value("count", std::uint64_t{0});
  for (const Needs& need : kPercentileNeeds) {
    if (lat.contains(need.key) && !lat[need.key].is_null()) {
      EXPECT_GE(n, need.ops) << what << ": " << need.key << " from " << n << " operations";
    }
  }
}

void CheckJson(const json& target, const std::string& where) {
  for (const json& p : target["probes"]) {
    if (p["status"] != "ok") continue;
    std::string what =
        where + " " + p["primitive"].get<std::string>() + " " + p["pattern"].get<std::string>();
    CheckLatency(p["latency_ns"], what);
    if (p.contains("sync_latency_ns")) CheckLatency(p["sync_latency_ns"], what + " sync");
    if (p["converged"].get<bool>()) {
      EXPECT_GE(p["ops"].get<std::uint64_t>(), 20u) << what << " converged";
      EXPECT_GE(p["seconds"].get<double>(), 0.5) << what << " converged";
    }
    for (const json& s : p.value("states", json::array())) {
      if (!s["p99_ns"].is_null()) {
        EXPECT_GE(s["ops"].get<std::uint64_t>(), 100u) << what;
      }
    }
  }
  for (const json& row : target.value("sqlite", json::array())) {
    if (row["status"] == "ok") CheckLatency(row["latency_ns"], where + " sqlite");
  }
}

// The probes' operation counts by "primitive pattern", from the JSON.
std::map<std::string, std::uint64_t> OpsByProbe(const json& target) {
  std::map<std::string, std::uint64_t> ops;
  for (const json& p : target["probes"]) {
    ops[p["primitive"].get<std::string>() + " " + p["pattern"].get<std::string>()] =
        p["ops"].get<std::uint64_t>();
  }
  return ops;
}

std::vector<std::string> Split(const std::string& line, const std::regex& sep) {
  std::vector<std::string> cells;
  for (std::sregex_token_iterator it(line.begin(), line.end(), sep, -1), end; it != end; ++it) {
    cells.push_back(*it);
  }
  return cells;
}

// CSV probe rows: p90_ns, p99_ns, p999_ns empty below their counts.
void CheckCsv(const std::string& csv, const std::string& where) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> header = Split(line, std::regex(","));
  std::map<std::string, std::size_t> col;
  for (std::size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  ASSERT_TRUE(col.count("ops") && col.count("p99_ns") && col.count("kind")) << line;
  int rows = 0;
  while (std::getline(in, line)) {
    std::vector<std::string> c = Split(line, std::regex(","));
    if (c.size() <= col["p999_ns"] || c[col["kind"]] != "probe" || c[col["status"]] != "ok")
      continue;
    ++rows;
    std::uint64_t ops = std::stoull(c[col["ops"]]);
    for (const Needs& need : kPercentileNeeds) {
      std::string key = std::string(need.key) + "_ns";
      if (!c[col[key]].empty()) {
        EXPECT_GE(ops, need.ops) << where << " csv " << key << ": " << line;
      }
    }
  }
  EXPECT_GT(rows, 0) << csv;
}

// Markdown's probe table: | primitive | pattern | size | status | ops | ops/s | p50 | p99 | p99.9 |
void CheckMarkdown(const std::string& md, const std::string& where) {
  std::istringstream in(md);
  std::string line;
  std::map<std::string, std::size_t> col;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.rfind("| primitive |", 0) == 0) {
      std::vector<std::string> h = Split(line, std::regex(R"(\s*\|\s*)"));
      col.clear();
      for (std::size_t i = 0; i < h.size(); ++i) col[h[i]] = i;
      continue;
    }
    if (col.empty() || line.rfind("| ", 0) != 0 || line.find("---") != std::string::npos) {
      if (line.empty()) col.clear();
      continue;
    }
    std::vector<std::string> c = Split(line, std::regex(R"(\s*\|\s*)"));
    if (c.size() <= col["p99.9"] || c[col["status"]] != "ok") continue;
    ++rows;
    std::uint64_t ops = std::stoull(std::regex_replace(c[col["ops"]], std::regex(","), ""));
    if (c[col["p99"]] != "-") {
      EXPECT_GE(ops, 100u) << where << " markdown: " << line;
    }
    if (c[col["p99.9"]] != "-") {
      EXPECT_GE(ops, 1000u) << where << " markdown: " << line;
    }
  }
  EXPECT_GT(rows, 0) << md;
}

// The piped console's probe table: the p50 cell carries `±` only with an interval, the percentile
// cells read `-` below their counts; the operation counts come from the JSON (by primitive and
// pattern, the row's first two cells).
void CheckConsole(const std::string& out, const json& target, const std::string& where) {
  std::map<std::string, std::uint64_t> ops = OpsByProbe(target);
  std::map<std::string, double> seconds;
  for (const json& p : target["probes"]) {
    seconds[p["primitive"].get<std::string>() + " " + p["pattern"].get<std::string>()] =
        p["seconds"].get<double>();
  }
  std::istringstream in(out);
  std::string line;
  bool in_table = false;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.rfind("primitive ", 0) == 0 && line.find("p50 (95% CI)") != std::string::npos) {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    if (line.empty() || line.rfind("  ", 0) == 0) break;  // the notes under the table
    std::vector<std::string> c = Split(line, std::regex(R"(\s{2,})"));
    ASSERT_GE(c.size(), 10u) << where << " console row: " << line;
    std::string key = c[0] + " " + c[1];
    ASSERT_TRUE(ops.count(key)) << where << " console row not in the JSON: " << line;
    ++rows;
    std::uint64_t n = ops[key];
    // primitive, pattern, size, ops, ops/s, p50 (95% CI), p90, p99, p99.9, max, sync p50
    if (c[5].find("±") != std::string::npos) {
      EXPECT_GE(n, 20u) << where << ": " << line;
      EXPECT_GE(seconds[key], 0.5) << where << ": " << line;
    }
    if (c[6] != "-") {
      EXPECT_GE(n, 10u) << where << ": " << line;
    }
    if (c[7] != "-") {
      EXPECT_GE(n, 100u) << where << ": " << line;
    }
    if (c[8] != "-") {
      EXPECT_GE(n, 1000u) << where << ": " << line;
    }
  }
  EXPECT_GT(rows, 0) << out;
}

// Prometheus: a sync quantile line only where its summary's _count supports it.
void CheckPrometheus(const std::string& text, const std::string& where) {
  const std::string metric = "durprobe_sync_quantile_latency_seconds";
  std::map<std::string, std::uint64_t> counts;            // labels -> count
  std::vector<std::pair<std::string, double>> quantiles;  // labels -> quantile
  std::regex q_line(metric + R"re(\{(.*),quantile="([0-9.]+)"\} .*)re");
  std::regex c_line(metric + R"re(_count\{(.*)\} ([0-9]+))re");
  std::istringstream in(text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, q_line)) quantiles.push_back({m[1], std::stod(m[2])});
    if (std::regex_match(line, m, c_line)) counts[m[1]] = std::stoull(m[2]);
  }
  EXPECT_FALSE(quantiles.empty()) << text;
  for (const auto& [labels, q] : quantiles) {
    ASSERT_TRUE(counts.count(labels)) << where << " prometheus: " << labels;
    // count x (1 - q) >= 1, with the float's rounding
    if (q > 0.5) {
      EXPECT_GE(double(counts[labels]) * (1.0 - q), 1.0 - 1e-9)
          << where << " " << labels << " " << q;
    }
  }
}

// HTML's probe table: ops, ops/s, p50, p90, p99, p99.9, max; a blank percentile reads "-".
void CheckHtml(const std::string& html, const std::string& where) {
  const std::string cell = R"re(<td class="num">([^<]*)</td>)re";
  const std::string skip = R"re(<td class="num">[^<]*</td>)re";
  // primitive, pattern, size, ops (1), ops/s, p50, then p90 (2), p99 (3), p99.9 (4)
  std::regex row(R"re(<tr><td>[^<]*</td><td>[^<]*</td>)re" + skip +
                 R"re(<td class="num">([0-9]+)</td>)re" + skip + skip + cell + cell + cell);
  int rows = 0;
  for (std::sregex_iterator it(html.begin(), html.end(), row), end; it != end; ++it) {
    ++rows;
    std::uint64_t ops = std::stoull((*it)[1]);
    if ((*it)[2] != "-") {
      EXPECT_GE(ops, 10u) << where << " html: " << it->str();
    }
    if ((*it)[3] != "-") {
      EXPECT_GE(ops, 100u) << where << " html: " << it->str();
    }
    if ((*it)[4] != "-") {
      EXPECT_GE(ops, 1000u) << where << " html: " << it->str();
    }
  }
  EXPECT_GT(rows, 0);
}

TEST_F(LabMountsTest, RunQuickPrintsNoFigureItsOperationsCannotSupport) {
  INSPECT_OR_SKIP(ext4, "ext4");
  INSPECT_OR_SKIP(tmpfs, "tmpfs");
  INSPECT_OR_SKIP(fuse, "bindfs");
  for (const char* name : {"ext4", "tmpfs", "bindfs"}) {
    SCOPED_TRACE(name);
    testing_support::TempDir out;
    std::string dir = dir_ + "/" + name;
    CliRun r = testing_support::RunDurprobe("run --quick --json " + out.path() + "/r.json --csv " +
                                            out.path() + "/r.csv --markdown " + out.path() +
                                            "/r.md --prometheus " + out.path() + "/r.prom --html " +
                                            out.path() + "/r.html " + dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json j = json::parse(testing_support::Slurp(out.path() + "/r.json"));
    const json& target = j["targets"][0];
    CheckJson(target, name);
    CheckCsv(testing_support::Slurp(out.path() + "/r.csv"), name);
    CheckMarkdown(testing_support::Slurp(out.path() + "/r.md"), name);
    CheckConsole(r.out, target, name);
    CheckPrometheus(testing_support::Slurp(out.path() + "/r.prom"), name);
    CheckHtml(testing_support::Slurp(out.path() + "/r.html"), name);
  }
}

}  // namespace
}  // namespace durprobe
