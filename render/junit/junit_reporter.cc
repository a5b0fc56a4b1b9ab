#include "render/junit/junit_reporter.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <map>
#include <vector>

#include "render/fsync_error_rows.h"
#include "text/units.h"
#include "text/xml_escape.h"

namespace durprobe::render::junit {
namespace {

struct Counts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  void Add(model::CheckOutcome o) {
    ++tests;
    failures += o == model::CheckOutcome::kFail;
    errors += o == model::CheckOutcome::kError || o == model::CheckOutcome::kUnstable;
    skipped += o == model::CheckOutcome::kSkipped;
  }
};

std::string Attrs(const Counts& c) {
  return fmt::format("tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\"", c.tests,
                     c.failures, c.errors, c.skipped);
}

std::string ComparisonText(const model::CheckResult& c) {
  if (!c.measured) return "not measured";
  return fmt::format("measured {}, threshold {} {}", model::FormatCheckValue(*c.measured, c.unit),
                     model::NameOf(c.comparison), model::FormatCheckValue(c.threshold, c.unit));
}

void WriteCase(const model::CheckResult& c, std::ostream& out) {
  fmt::print(out, "    <testcase classname=\"{}\" name=\"{}\">\n", XmlEscape(c.path),
             XmlEscape(c.rule));
  switch (c.outcome) {
    case model::CheckOutcome::kPass:
      fmt::print(out, "      <system-out>{}: {}</system-out>\n", XmlEscape(ComparisonText(c)),
                 XmlEscape(c.message));
      break;
    case model::CheckOutcome::kFail:
      fmt::print(out, "      <failure type=\"{}\" message=\"{}\">{}</failure>\n",
                 c.tail_failure ? "tail_failure" : "threshold", XmlEscape(ComparisonText(c)),
                 XmlEscape(c.message));
      break;
    case model::CheckOutcome::kError:
      fmt::print(out, "      <error type=\"not_measured\" message=\"{}\">{}</error>\n",
                 XmlEscape(c.message), XmlEscape(c.message));
      break;
    case model::CheckOutcome::kSkipped:
      fmt::print(out, "      <skipped message=\"{}\"/>\n", XmlEscape(c.message));
      break;
    case model::CheckOutcome::kUnstable:  // could not be measured reliably: an error, not a failure
      fmt::print(out, "      <error type=\"unstable\" message=\"{}\">{}</error>\n",
                 XmlEscape(ComparisonText(c)), XmlEscape(c.message));
      break;
  }
  fmt::print(out, "    </testcase>\n");
}

// `faults` (a report without rules): a suite per filesystem, a testcase per experiment and per
// SQLite commit. A failed write the sync did not report is a failure; an experiment that could
// not run is an error or, when unsupported here, skipped; the rest pass, the row as their output.
void WriteFaultSuites(const model::Report& report, std::ostream& out) {
  struct Suite {
    std::string name;
    Counts counts;
    std::string cases;
  };
  std::vector<Suite> suites;
  Counts total;
  for (const model::Target& t : report.targets) {
    for (const probes::FsyncErrorsResult& r : t.fsync_errors) {
      Suite s;
      s.name = t.path + ": " + r.fs + (r.fs_options.empty() ? "" : " -o " + r.fs_options);
      auto add = [&](const std::string& name, probes::Outcome status, const std::string& reason,
                     bool failed, const std::vector<std::string>& cells) {
        model::CheckOutcome outcome = status == probes::Outcome::kOk ? model::CheckOutcome::kPass
                                      : status == probes::Outcome::kUnsupported
                                          ? model::CheckOutcome::kSkipped
                                          : model::CheckOutcome::kError;
        if (outcome == model::CheckOutcome::kPass && failed) outcome = model::CheckOutcome::kFail;
        s.counts.Add(outcome);
        total.Add(outcome);
        std::string row;
        for (const std::string& c : cells) row += (row.empty() ? "" : " | ") + c;
        s.cases += fmt::format("    <testcase classname=\"{}\" name=\"{}\">\n", XmlEscape(s.name),
                               XmlEscape(name));
        switch (outcome) {
          case model::CheckOutcome::kFail:
            s.cases += fmt::format(
                "      <failure type=\"not_reported\" message=\"the failed write was not "
                "reported\">{}</failure>\n",
                XmlEscape(row));
            break;
          case model::CheckOutcome::kSkipped:
            s.cases += fmt::format("      <skipped message=\"{}\"/>\n", XmlEscape(reason));
            break;
          case model::CheckOutcome::kError:
          case model::CheckOutcome::kUnstable:
            s.cases += fmt::format("      <error type=\"not_measured\" message=\"{}\">{}</error>\n",
                                   XmlEscape(reason), XmlEscape(reason));
            break;
          case model::CheckOutcome::kPass:
            s.cases += fmt::format("      <system-out>{}</system-out>\n", XmlEscape(row));
            break;
        }
        s.cases += "    </testcase>\n";
      };
      for (const probes::FsyncErrorOutcome& o : r.outcomes) {
        add(fmt::format("{} {}", probes::NameOf(o.fault), o.sync), o.status, o.reason,
            o.reporting == probes::Reporting::kNotReported && o.write == "ok", FsyncErrorCells(o));
      }
      for (const probes::SqliteSyncFailure& f : r.sqlite) {
        add("sqlite " + f.journal_mode, f.status, f.reason, false, SqliteSyncFailureCells(f));
      }
      suites.push_back(std::move(s));
    }
  }
  fmt::print(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  fmt::print(out, "<testsuites name=\"durprobe faults\" {}>\n", Attrs(total));
  int id = 0;
  for (const Suite& s : suites) {
    fmt::print(out, "  <testsuite name=\"{}\" id=\"{}\" {} hostname=\"{}\" timestamp=\"{}\">\n",
               XmlEscape(s.name), id++, Attrs(s.counts), XmlEscape(report.context.host),
               XmlEscape(report.context.started_at));
    out << s.cases;
    fmt::print(out, "  </testsuite>\n");
  }
  fmt::print(out, "</testsuites>\n");
}

}  // namespace

std::string XmlEscape(std::string_view text) { return text::EscapeXml(text, "&apos;"); }

Status JunitReporter::Write(const model::Report& report, std::ostream& out) const {
  if (report.checks.empty() &&
      std::any_of(report.targets.begin(), report.targets.end(),
                  [](const model::Target& t) { return !t.fsync_errors.empty(); })) {
    WriteFaultSuites(report, out);
    return Status::Ok();
  }
  // Suites in the order their paths first appear, each with its own counts.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const model::CheckResult*>> by_path;
  Counts total;
  for (const model::CheckResult& c : report.checks) {
    if (!by_path.count(c.path)) order.push_back(c.path);
    by_path[c.path].push_back(&c);
    total.Add(c.outcome);
  }
  fmt::print(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  fmt::print(out, "<testsuites name=\"durprobe check\" {}>\n", Attrs(total));
  int id = 0;
  for (const std::string& path : order) {
    Counts counts;
    for (const model::CheckResult* c : by_path[path]) counts.Add(c->outcome);
    fmt::print(out, "  <testsuite name=\"{}\" id=\"{}\" {} hostname=\"{}\" timestamp=\"{}\">\n",
               XmlEscape(path), id++, Attrs(counts), XmlEscape(report.context.host),
               XmlEscape(report.context.started_at));
    fmt::print(out, "    <properties>\n");
    fmt::print(out, "      <property name=\"durprobe_version\" value=\"{}\"/>\n",
               XmlEscape(report.context.durprobe_version));
    for (const model::Target& t : report.targets) {
      if (t.path != path || !t.mount) continue;
      fmt::print(out, "      <property name=\"fstype\" value=\"{}\"/>\n",
                 XmlEscape(t.mount->fstype));
      fmt::print(out, "      <property name=\"source\" value=\"{}\"/>\n",
                 XmlEscape(t.mount->source));
    }
    fmt::print(out, "    </properties>\n");
    for (const model::CheckResult* c : by_path[path]) WriteCase(*c, out);
    fmt::print(out, "  </testsuite>\n");
  }
  fmt::print(out, "</testsuites>\n");
  return Status::Ok();
}

}  // namespace durprobe::render::junit
