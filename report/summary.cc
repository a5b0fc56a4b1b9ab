#include "report/summary.h"

#include "report/json_reader.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <tuple>

#include "report/diff_analysis.h"
#include "report/units.h"

namespace durprobe::report {
namespace {

using nlohmann::json;

std::string Str(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<double> Num(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

// The sync latency a fleet compares: etcd's WAL probe when the report has it, else fdatasync
// 4 KiB overwrite, else the first fdatasync, else the first synced probe.
const json* PickProbe(const json& probes) {
  const json* best = nullptr;
  int best_rank = 99;
  for (const json& p : probes) {
    if (Str(p, "status") != "ok" && p.contains("status")) continue;
    std::string prim = Str(p, "primitive"), pat = Str(p, "pattern");
    std::optional<double> size = Num(p, "write_size");
    if (prim == "none" || !p.contains("latency_ns")) continue;
    int rank = prim == "fdatasync" && pat == "preallocated" && size == 2300 ? 0
               : prim == "fdatasync" && pat == "overwrite" && size == 4096  ? 1
               : prim == "fdatasync"                                        ? 2
                                                                            : 3;
    if (rank < best_rank) {
      best = &p;
      best_rank = rank;
    }
  }
  return best;
}

std::string Opt(const std::optional<double>& v, bool nanos) {
  if (!v) return "-";
  return nanos ? FormatNanos(*v) : FormatRate(*v);
}

std::string Join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

Result<std::vector<SummaryRow>> RowsFromReport(const json& doc, const std::string& file) {
  Status valid = ValidateReport(doc);
  if (!valid.ok()) return valid;
  const json& context =
      doc.contains("context") && doc["context"].is_object() ? doc["context"] : json::object();
  std::vector<SummaryRow> rows;
  for (const json& t : doc["targets"]) {
    if (!t.is_object()) return Status::InvalidArgument("a target is not an object");
    SummaryRow row;
    row.file = file;
    row.host = Str(context, "host");
    row.started_at = Str(context, "started_at");
    row.path = Str(t, "path");
    if (auto m = t.find("mount"); m != t.end() && m->is_object()) {
      row.fstype = Str(*m, "fstype");
      row.device = m->contains("device") && (*m)["device"].is_object() ? Str((*m)["device"], "name")
                                                                       : Str(*m, "source");
    }
    if (auto probes = t.find("probes"); probes != t.end() && probes->is_array()) {
      if (const json* p = PickProbe(*probes)) {
        const json& lat =
            p->contains("sync_latency_ns") ? (*p)["sync_latency_ns"] : (*p)["latency_ns"];
        row.sync_p50_ns = Num(lat, "p50");
        row.sync_p99_ns = Num(lat, "p99");
        row.sync_probe = fmt::format("{} {} {}", Str(*p, "primitive"), Str(*p, "pattern"),
                                     Num(*p, "write_size").value_or(0));
      }
    }
    if (auto sqlite = t.find("sqlite"); sqlite != t.end() && sqlite->is_array()) {
      for (const json& e : *sqlite) {
        if (Num(e, "rows_per_commit").value_or(1) != 1) continue;
        std::string config = Str(e, "journal_mode") + "/" + Str(e, "synchronous");
        if (config == "WAL/FULL" && !row.commits_wal_full)
          row.commits_wal_full = Num(e, "commits_per_sec");
        if (config == "DELETE/FULL" && !row.commits_delete_full) {
          row.commits_delete_full = Num(e, "commits_per_sec");
        }
      }
    }
    if (auto findings = t.find("findings"); findings != t.end() && findings->is_array()) {
      for (const json& f : *findings) {
        std::string sev = Str(f, "severity");
        if (sev == "warn" || sev == "fail") row.findings.push_back(Str(f, "code"));
      }
    }
    if (auto checks = doc.find("checks"); checks != doc.end() && checks->is_array()) {
      for (const json& c : *checks) {
        std::string status = Str(c, "status");
        if (Str(c, "path") == row.path && (status == "fail" || status == "error")) {
          row.failed_rules.push_back(Str(c, "rule"));
        }
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

const std::vector<std::string>& SummarySortKeys() {
  static const std::vector<std::string> keys = {
      "worst", "host", "path", "sync_p50", "sync_p99", "commits_wal_full", "commits_delete_full",
      "failed"};
  return keys;
}

void SortRows(std::vector<SummaryRow>& rows, const std::string& key) {
  auto tie = [](const SummaryRow& a, const SummaryRow& b) {
    return std::tie(a.host, a.path) < std::tie(b.host, b.path);
  };
  // Missing values sort last whatever the direction.
  auto desc = [&](const std::optional<double>& x, const std::optional<double>& y,
                  const SummaryRow& a, const SummaryRow& b) {
    if (x.has_value() != y.has_value()) return x.has_value();
    if (x && *x != *y) return *x > *y;
    return tie(a, b);
  };
  auto asc = [&](const std::optional<double>& x, const std::optional<double>& y,
                 const SummaryRow& a, const SummaryRow& b) {
    if (x.has_value() != y.has_value()) return x.has_value();
    if (x && *x != *y) return *x < *y;
    return tie(a, b);
  };
  std::stable_sort(rows.begin(), rows.end(), [&](const SummaryRow& a, const SummaryRow& b) {
    if (key == "host" || key == "path") {
      return key == "host" ? tie(a, b) : std::tie(a.path, a.host) < std::tie(b.path, b.host);
    }
    if (key == "sync_p50") return desc(a.sync_p50_ns, b.sync_p50_ns, a, b);
    if (key == "sync_p99") return desc(a.sync_p99_ns, b.sync_p99_ns, a, b);
    if (key == "commits_wal_full") return asc(a.commits_wal_full, b.commits_wal_full, a, b);
    if (key == "commits_delete_full")
      return asc(a.commits_delete_full, b.commits_delete_full, a, b);
    if (a.failed_rules.size() != b.failed_rules.size()) {
      return a.failed_rules.size() > b.failed_rules.size();
    }
    if (key == "worst" && a.findings.size() != b.findings.size()) {
      return a.findings.size() > b.findings.size();
    }
    return desc(a.sync_p99_ns, b.sync_p99_ns, a, b);
  });
}

void WriteSummaryTable(const std::vector<SummaryRow>& rows, std::ostream& out) {
  fmt::print(out, "{:<16} {:<24} {:<8} {:<10} {:>10} {:>10} {:>9} {:>9}  {}\n", "host", "path",
             "fs", "device", "sync p50", "sync p99", "WAL/FULL", "DEL/FULL",
             "failed rules; findings");
  for (const SummaryRow& r : rows) {
    std::string problems = Join(r.failed_rules, ",");
    if (!r.findings.empty()) problems += (problems.empty() ? "" : "; ") + Join(r.findings, ",");
    fmt::print(out, "{:<16} {:<24} {:<8} {:<10} {:>10} {:>10} {:>9} {:>9}  {}\n", r.host, r.path,
               r.fstype, r.device, Opt(r.sync_p50_ns, true), Opt(r.sync_p99_ns, true),
               Opt(r.commits_wal_full, false), Opt(r.commits_delete_full, false),
               problems.empty() ? "-" : problems);
  }
}

void WriteSummaryCsv(const std::vector<SummaryRow>& rows, std::ostream& out) {
  fmt::print(out,
             "host,path,fstype,device,sync_probe,sync_p50_ns,sync_p99_ns,commits_wal_full,"
             "commits_delete_full,failed_rules,findings,started_at,file\n");
  auto num = [](const std::optional<double>& v) { return v ? fmt::format("{}", *v) : ""; };
  for (const SummaryRow& r : rows) {
    fmt::print(out, "{},{},{},{},{},{},{},{},{},{},{},{},{}\n", CsvField(r.host), CsvField(r.path),
               CsvField(r.fstype), CsvField(r.device), CsvField(r.sync_probe), num(r.sync_p50_ns),
               num(r.sync_p99_ns), num(r.commits_wal_full), num(r.commits_delete_full),
               CsvField(Join(r.failed_rules, " ")), CsvField(Join(r.findings, " ")),
               CsvField(r.started_at), CsvField(r.file));
  }
}

json SummaryJson(const std::vector<SummaryRow>& rows) {
  json out = json::array();
  auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  for (const SummaryRow& r : rows) {
    out.push_back({{"host", r.host},
                   {"path", r.path},
                   {"fstype", r.fstype},
                   {"device", r.device},
                   {"sync_probe", r.sync_probe},
                   {"sync_p50_ns", opt(r.sync_p50_ns)},
                   {"sync_p99_ns", opt(r.sync_p99_ns)},
                   {"commits_wal_full", opt(r.commits_wal_full)},
                   {"commits_delete_full", opt(r.commits_delete_full)},
                   {"failed_rules", r.failed_rules},
                   {"findings", r.findings},
                   {"started_at", r.started_at},
                   {"file", r.file}});
  }
  return json{{"schema", "durprobe.summary/1"}, {"rows", out}};
}

}  // namespace durprobe::report
