#include "cli/common.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cctype>
#include <iostream>

#include "cli/version.h"
#include "platform/interrupt.h"
#include "report/documents/compare_analysis.h"
#include "report/format/console/live_console.h"
#include "report/format/console/progress_console.h"
#include "report/model/labels.h"
#include "report/output/reporter_factory.h"
#include "report/text/units.h"
#include "run/executor.h"

namespace durprobe::cli {
namespace {

std::string& StoredCommandLine() {
  static std::string line;
  return line;
}

std::string ShellQuote(const std::string& word) {
  bool plain = !word.empty();
  for (char c : word) {
    plain = plain && (std::isalnum(static_cast<unsigned char>(c)) ||
                      std::string_view("-_./=:,@%+").find(c) != std::string_view::npos);
  }
  if (plain) return word;
  std::string q = "'";
  for (char c : word) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

const char* FormatHelp(report::Format f) {
  switch (f) {
    case report::Format::kJson:
      return "Write the JSON report to FILE, or - for stdout";
    case report::Format::kCsv:
      return "Write a flat CSV table (probes and SQLite rows) to FILE or -";
    case report::Format::kMarkdown:
      return "Write Markdown tables (for a ticket) to FILE or -";
    case report::Format::kHtml:
      return "Write a self-contained HTML page with plots to FILE";
    case report::Format::kJunit:
      return "Write JUnit XML (a testcase per rule) to FILE or -";
    case report::Format::kPrometheus:
      return "Write a Prometheus textfile to FILE or -";
    case report::Format::kConsole:
      return "";
  }
  return "";
}

std::string* FieldOf(OutputOptions& o, report::Format f) {
  switch (f) {
    case report::Format::kJson:
      return &o.json;
    case report::Format::kCsv:
      return &o.csv;
    case report::Format::kMarkdown:
      return &o.markdown;
    case report::Format::kHtml:
      return &o.html;
    case report::Format::kJunit:
      return &o.junit;
    case report::Format::kPrometheus:
      return &o.prometheus;
    case report::Format::kConsole:
      return nullptr;
  }
  return nullptr;
}

// --dry-run: the plan as context.options would record it, with the paths.
int PrintPlan(const run::Plan& plan) {
  nlohmann::json j = run::Describe(plan);
  j["command"] = plan.command;
  j["paths"] = plan.paths;
  std::cout << j.dump(2) << "\n";
  return kExitOk;
}

// Status for the end of a run: the interruption message (exit 128+signal), or -1.
int ReportInterruption(const run::Execution& ex) {
  int code = InterruptedExitCode();
  if (code < 0) return -1;
  std::size_t unfinished = 0;
  for (const report::Target& t : ex.report.targets) unfinished += t.unfinished.size();
  std::string what = ex.report.context.interrupt_signal == 15 ? "SIGTERM" : "SIGINT";
  UsageError(
      fmt::format("interrupted by {}: kept what finished ({} item(s) not run or not finished); "
                  "scratch removed",
                  what, unfinished));
  return code;
}

}  // namespace

void AddStandardFlags(CLI::App& app, OutputOptions& o) {
  app.add_flag("-q,--quiet", o.quiet, "Print nothing but errors");
  app.add_flag("-v,--verbose", o.verbose, "Print a line per step on stderr");
  app.add_flag_callback(
      "-V,--version", [] { throw CLI::CallForVersion(VersionText(), 0); },
      "Print the version and exit");
}

void AddDryRun(CLI::App& app, OutputOptions& o) {
  app.add_flag("--dry-run", o.dry_run,
               "Print what would be measured (paths, probes, configurations, budget) as JSON, "
               "and measure nothing");
}

void AddOutputOptions(CLI::App& app, OutputOptions& o, const std::vector<report::Format>& formats) {
  for (report::Format f : formats) {
    std::string name = f == report::Format::kJson ? "-j,--json" : report::OptionOf(f);
    app.add_option(name, *FieldOf(o, f), FormatHelp(f))->type_name("FILE");
  }
}

std::vector<report::Format> ReportFormats() {
  std::vector<report::Format> out;
  for (report::Format f :
       {report::Format::kJson, report::Format::kCsv, report::Format::kMarkdown,
        report::Format::kHtml, report::Format::kJunit, report::Format::kPrometheus}) {
    if (report::MakeReporter(f) != nullptr) out.push_back(f);
  }
  return out;
}

void AddCommonOptions(CLI::App& app, CommonOptions& o, const std::string& quick_help,
                      const std::string& default_budget) {
  app.add_flag("--quick", o.quick, quick_help);
  app.add_option("--budget", o.budget,
                 "Total time to spend measuring, over all paths (500ms, 30s, 2m); default " +
                     default_budget)
      ->type_name("DURATION")
      ->check(Duration());
  AddDryRun(app, o.out);
  AddOutputOptions(app, o.out, ReportFormats());
  AddStandardFlags(app, o.out);
}

std::vector<report::Destination> Destinations(const OutputOptions& o) {
  std::vector<report::Destination> out;
  OutputOptions copy = o;
  for (report::Format f :
       {report::Format::kJson, report::Format::kCsv, report::Format::kMarkdown,
        report::Format::kHtml, report::Format::kJunit, report::Format::kPrometheus}) {
    const std::string& path = *FieldOf(copy, f);
    if (!path.empty()) out.push_back({f, path});
  }
  return out;
}

int UsageError(const std::string& message) {
  fmt::print(std::cerr, "durprobe: error: {}\n", message);
  return kExitUsage;
}

Result<std::vector<std::string>> ResolveTargets(platform::Platform& platform,
                                                const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& p : paths) {
    switch (platform.KindOf(p)) {
      case platform::PathKind::kMissing: {
        // stat failed: absent, or present but out of reach (EACCES on a parent, ELOOP).
        Result<platform::FileStat> st = platform.Stat(p);
        if (!st.ok() && st.status().error_number() != ENOENT) {
          std::string why = st.status().message();  // "stat PATH: <errno text>"
          return Status::InvalidArgument(fmt::format(
              "cannot reach path '{}': {} (check the permissions of its parent directories)", p,
              why.substr(why.rfind(": ") + 2)));
        }
        return Status::InvalidArgument(fmt::format("path '{}' does not exist", p));
      }
      case platform::PathKind::kDirectory:
        break;
      default:
        return Status::InvalidArgument(
            fmt::format("path '{}' is not a directory (durprobe measures inside a directory)", p));
    }
    Result<std::string> real = platform.RealPath(p);
    if (!real.ok()) return Status::InvalidArgument(real.status().message());
    out.push_back(*real);
  }
  return out;
}

Result<std::uint64_t> BudgetNanos(const CommonOptions& o, std::uint64_t default_ns,
                                  std::uint64_t quick_ns) {
  if (!o.budget.empty()) return report::ParseDurationNanos(o.budget);
  return o.quick ? quick_ns : default_ns;
}

void SetCommandLine(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    std::string word = i == 0 ? std::string("durprobe") : std::string(argv[i]);
    line += (line.empty() ? "" : " ") + ShellQuote(word);
  }
  StoredCommandLine() = line;
}

const std::string& CommandLine() { return StoredCommandLine(); }

namespace {

// What every measuring command shares: destinations checked first, --dry-run, the command line,
// the progress line or log on stderr, and the live console (null: the document is printed
// whole at the end), then the run. Fills ex; returns the exit status when the run cannot go on
// (bad input, a dry run), or -1.
int RunPlan(platform::Platform& platform, run::Plan& plan, const OutputOptions& out,
            const std::vector<report::Destination>& files, report::LiveConsole* console,
            run::Execution& ex) {
  if (Status ok = report::CheckDestinations(platform, files); !ok.ok()) {
    return UsageError(ok.message());
  }
  if (out.dry_run) return PrintPlan(plan);
  plan.command_line = CommandLine();
  report::ListenerList listeners;
  report::ProgressLine line(std::cerr);
  report::ProgressLog log(std::cerr);
  if (!out.quiet && out.verbose) listeners.Add(&log);
  if (!out.quiet && !out.verbose && platform.IsTerminal(2)) listeners.Add(&line);
  if (!out.quiet && !report::UsesStdout(files)) listeners.Add(console);
  ex = run::Execute(platform, plan, listeners);
  if (ex.status.kind() == Status::Kind::kInvalidArgument) return UsageError(ex.status.message());
  return -1;
}

// After the documents are written: the interruption, a run error, a write error, or -1.
int EndOfRun(const run::Execution& ex, const Status& written) {
  if (int code = ReportInterruption(ex); code >= 0) return code;
  if (!ex.status.ok()) return UsageError(ex.status.message());
  if (!written.ok()) return UsageError("cannot write the report: " + written.message());
  return -1;
}

}  // namespace

int ExecutePlan(platform::Platform& platform, run::Plan plan, const OutputOptions& out,
                const ReportVerdict& verdict, const std::function<void(report::Report&)>& analyze) {
  std::vector<report::Destination> files = Destinations(out);
  report::LiveConsole console(std::cout);
  run::Execution ex;
  if (int code = RunPlan(platform, plan, out, files, &console, ex); code >= 0) return code;
  if (analyze) {
    analyze(ex.report);
    if (!out.quiet && !report::UsesStdout(files)) console.AfterRun(ex.report);
  }
  Status written = report::WriteDestinations(platform, files, ex.report, std::cout);
  if (int code = EndOfRun(ex, written); code >= 0) return code;
  return verdict ? verdict(ex.report) : kExitOk;
}

int ExecuteComparePlan(platform::Platform& platform, run::Plan plan, const OutputOptions& out) {
  std::vector<report::Destination> files = Destinations(out);
  run::Execution ex;
  if (int code = RunPlan(platform, plan, out, files, nullptr, ex); code >= 0) return code;
  int failed = FailedMeasurements(ex.report);
  report::Comparison comparison{ex.report.context, std::move(ex.report.targets), {}};
  comparison.verdicts = report::CompareVerdicts(comparison.targets);
  if (!out.quiet && !report::UsesStdout(files)) {
    report::WriteDestinations(platform, {{report::Format::kConsole, "-"}}, comparison, std::cout);
  }
  Status written = report::WriteDestinations(platform, files, comparison, std::cout);
  if (int code = EndOfRun(ex, written); code >= 0) return code;
  return failed;
}

int MeasurementFailures(const report::Report& report) {
  int failed = 0;
  for (const report::Target& t : report.targets) {
    for (const probes::ProbeResult& r : t.probes) {
      if (r.outcome != probes::Outcome::kError) continue;
      fmt::print(std::cerr, "durprobe: error: {}: {}: {}\n", t.path, report::ProbeLabel(r.spec),
                 r.reason);
      ++failed;
    }
    for (const report::SqliteEntry& e : t.sqlite) {
      if (e.result.outcome != probes::Outcome::kError) continue;
      fmt::print(std::cerr, "durprobe: error: {}: {}: {}\n", t.path,
                 sqlite_bench::Label(e.result.config), e.result.reason);
      ++failed;
    }
    for (const std::string& e : sqlite_bench::WorkloadErrors(t.sqlite_workloads)) {
      fmt::print(std::cerr, "durprobe: error: {}: {}\n", t.path, e);
      ++failed;
    }
  }
  return failed;
}

int FailedMeasurements(const report::Report& report) {
  return MeasurementFailures(report) > 0 ? kExitFail : kExitOk;
}

int InterruptedExitCode() {
  int sig = platform::InterruptSignal();
  return sig == 0 ? -1 : 128 + sig;
}

CLI::Validator Size() {
  return CLI::Validator(
      [](std::string& value) {
        Result<std::uint64_t> n = report::ParseSize(value);
        return n.ok() ? std::string() : n.status().message();
      },
      "SIZE");
}

CLI::Validator Duration() {
  return CLI::Validator(
      [](std::string& value) {
        Result<std::uint64_t> n = report::ParseDurationNanos(value);
        return n.ok() ? std::string() : n.status().message();
      },
      "DURATION");
}

CLI::Validator OneOf(const std::vector<std::string>& names, const std::string& what) {
  std::string joined;
  for (const std::string& n : names) joined += (joined.empty() ? "" : ", ") + n;
  return CLI::Validator(
      [names, what, joined](std::string& value) {
        std::string lower = value;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        for (const std::string& n : names) {
          if (n == lower) {
            value = n;
            return std::string();
          }
        }
        return fmt::format("'{}' is not one of {} (the valid {} names)", value, joined, what);
      },
      "{" + joined + "}");
}

CLI::Validator InRange(double lo, double hi) {
  auto text = [](double v) {
    return v == static_cast<double>(static_cast<long long>(v)) ? fmt::format("{:.0f}", v)
                                                               : fmt::format("{}", v);
  };
  std::string range = text(lo) + ".." + text(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& value) {
        double v = 0;
        std::size_t used = 0;
        try {
          v = std::stod(value, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != value.size()) {
          return fmt::format("'{}' is not a number (expected {})", value, range);
        }
        if (v < lo || v > hi) return fmt::format("'{}' is not in {}", value, range);
        return std::string();
      },
      "in " + range);
}

CLI::Option* AddListOption(CLI::App& app, const std::string& name, std::vector<std::string>& into,
                           const std::string& help) {
  return app.add_option(name, into, help)
      ->delimiter(',')
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

}  // namespace durprobe::cli
