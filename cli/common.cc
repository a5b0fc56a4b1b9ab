#include "cli/common.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cctype>
#include <cerrno>
#include <iostream>
#include <sstream>

#include "platform/interrupt.h"
#include "report/console_reporter.h"
#include "report/json_reporter.h"
#include "report/units.h"
#include "sqlite_bench/commit_spec.h"
#include "sqlite_bench/workloads.h"

namespace durprobe::cli {

void AddCommonOptions(CLI::App& app, CommonOptions& o) {
  app.add_option("--json", o.json, "Write the JSON report to FILE, or - for stdout")
      ->type_name("FILE|-");
  app.add_flag("--quick", o.quick, "Short run: the default probe set in about 5 s");
  app.add_option("--budget", o.budget, "Total time to spend measuring (500ms, 30s, 2m)")
      ->type_name("DURATION")
      ->check(Duration());
  app.add_flag("--quiet", o.quiet, "Print nothing but errors");
  app.add_flag("--verbose", o.verbose, "Print progress on stderr");
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

Status EmitReport(platform::Platform& platform, const report::Report& report,
                  const CommonOptions& o) {
  bool json_to_stdout = o.json == "-";
  if (!o.quiet && !json_to_stdout) report::PrintReport(report, std::cout);
  if (o.json.empty()) return Status::Ok();
  if (json_to_stdout) {
    report::WriteJson(report, std::cout);
    return Status::Ok();
  }
  std::ostringstream text;
  report::WriteJson(report, text);
  return WriteWhole(platform, o.json, text.str());
}

Status WriteWhole(platform::Platform& platform, const std::string& path, const std::string& text) {
  std::string temporary = fmt::format("{}.durprobe-partial-{}", path, platform.ProcessId());
  Status written = platform.WriteTextFile(temporary, text);
  if (written.ok()) written = platform.Rename(temporary, path);
  if (!written.ok()) platform.Unlink(temporary);
  return written;
}

int PrintFailures(const std::vector<report::Target>& targets) {
  int failed = 0;
  auto print = [&failed](const std::string& path, const std::string& what) {
    fmt::print(std::cerr, "durprobe: error: {}: {}\n", path, what);
    ++failed;
  };
  for (const report::Target& t : targets) {
    for (const probes::ProbeResult& r : t.probes) {
      if (r.outcome != probes::Outcome::kError) continue;
      print(t.path, fmt::format("{} {} {}: {}", probes::NameOf(r.spec.primitive),
                                probes::NameOf(r.spec.pattern), r.spec.write_size, r.reason));
    }
    for (const probes::OpCostResult& r : t.op_costs) {
      if (r.outcome == probes::Outcome::kError) {
        print(t.path, fmt::format("{}: {}", probes::NameOf(r.op), r.reason));
      }
    }
    for (const report::SqliteEntry& e : t.sqlite) {
      if (e.result.outcome == probes::Outcome::kError) {
        print(t.path, fmt::format("{}: {}", sqlite_bench::Label(e.result.config), e.result.reason));
      }
    }
    for (const std::string& e : sqlite_bench::WorkloadErrors(t.sqlite_workloads)) print(t.path, e);
  }
  return failed;
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
        return fmt::format("unknown {} '{}' (valid: {})", what, value, joined);
      },
      "{" + joined + "}");
}

CLI::Option* AddListOption(CLI::App& app, const std::string& name, std::vector<std::string>& into,
                           const std::string& help) {
  return app.add_option(name, into, help)
      ->delimiter(',')
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

}  // namespace durprobe::cli
