#include "cli/cmd_watch.h"

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "analysis/watch_report.h"
#include "cli/exit_status.h"
#include "cli/validators.h"
#include "codec/report_json.h"
#include "codec/watch_json.h"
#include "output/output.h"
#include "platform/interrupt.h"
#include "render/console/watch_console.h"
#include "render/prometheus/watch_prometheus.h"
#include "run/watch_window.h"
#include "text/units.h"

namespace durprobe::cli {

Subcommand SetupWatch(CLI::App& app) {
  auto o = std::make_shared<WatchOptions>();
  CLI::App* sub = app.add_subcommand(
      "watch",
      "Observe live processes' syncs with eBPF (root): per file, its kind, rate, latency and "
      "bytes per sync, and what a SQLite database's pattern means (docs/watch.md)");
  sub->add_option("--pid", o->pids, "Only these processes (repeat, or comma-separated)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  sub->add_option("--comm", o->comm, "Only threads of this command name (15 bytes at most)");
  sub->add_option("--path", o->path, "Only files under this directory");
  sub->add_option("--for", o->duration, "How long to watch (10s, 1m); default: until Ctrl-C")
      ->check(Duration());
  sub->add_option("-j,--json", o->json, "Write the durprobe.watch/1 document to FILE (- stdout)")
      ->type_name("FILE");
  sub->add_option("--prometheus", o->prometheus,
                  "Write the window's syncs per command and file kind as a node_exporter textfile "
                  "to FILE (- stdout), at the end of the window")
      ->type_name("FILE");
  AddStandardFlags(*sub, o->out);
  AddDryRun(*sub, o->out);
  return {sub, [o] { return RunWatch(*o); }};
}

int RunWatch(const WatchOptions& o) {
  platform::Platform& platform = platform::Default();
  if (o.comm.size() > 15) {
    return UsageError("--comm " + o.comm + ": a command name is 15 bytes at most (/proc/PID/comm)");
  }
  run::WatchRequest request;
  request.pids = o.pids;
  request.comm = o.comm;
  if (!o.path.empty()) {
    if (platform.KindOf(o.path) != platform::PathKind::kDirectory) {
      return UsageError("--path " + o.path + ": not a directory");
    }
    Result<std::string> real = platform.RealPath(o.path);
    request.path = real.ok() ? *real : o.path;
  }
  if (!o.duration.empty()) {
    Result<std::uint64_t> ns = text::ParseDurationNanos(o.duration);
    if (!ns.ok()) return UsageError("--for " + o.duration + ": " + ns.status().message());
    request.seconds = static_cast<double>(*ns) / 1e9;
  }
  std::vector<output::Destination> outputs;
  if (!o.json.empty()) outputs.push_back({output::Format::kJson, o.json});
  if (!o.prometheus.empty()) outputs.push_back({output::Format::kPrometheus, o.prometheus});
  if (Status ok = output::CheckDestinations(platform, outputs); !ok.ok()) {
    return UsageError(ok.message());
  }
  if (o.out.dry_run) {
    nlohmann::json plan = {{"command", "watch"},
                           {"pids", request.pids},
                           {"comm", request.comm},
                           {"path", request.path},
                           {"seconds", request.seconds}};
    std::cout << plan.dump(2) << "\n";
    return kExitOk;
  }
  Result<model::WatchRecording> recording = run::RecordWatch(platform, request, [&] {
    if (!o.out.quiet) {
      PrintLine(std::cerr, render::console::WatchBanner(request.pids, request.comm, request.path,
                                                        request.seconds));
    }
  });
  if (!recording.ok()) {
    // A verifier's refusal carries its log on the lines after the first.
    std::cerr << "durprobe: error: " << recording.status().message() << "\n";
    return kExitUsage;
  }
  model::WatchReport report = analysis::BuildWatchReport(*recording);
  if (!o.out.quiet && !output::UsesStdout(outputs)) render::console::PrintWatch(report, std::cout);
  std::ostringstream prometheus;
  render::prometheus::WriteWatchPrometheus(report, prometheus);
  for (auto [option, file, text] :
       {std::tuple{"--json", o.json, codec::DumpJson(codec::ToJson(report))},
        std::tuple{"--prometheus", o.prometheus, prometheus.str()}}) {
    if (file.empty()) continue;
    if (file == "-") {
      std::cout << text;
    } else if (Status st = platform.ReplaceFileAtomically(file, text); !st.ok()) {
      PrintError(std::string(option) + " " + file + ": " + st.message());
      return kExitFail;
    }
  }
  std::cout.flush();
  // Ctrl-C is how a watch without --for ends; one with --for cut short says so in its status.
  if (request.seconds > 0 && platform::InterruptSignal() != 0) return InterruptedExitCode();
  return kExitOk;
}

}  // namespace durprobe::cli
