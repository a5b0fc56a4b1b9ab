#include "cli/app.h"

#include <algorithm>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include <fmt/ostream.h>

#include "cli/cmd_clean.h"
#include "cli/cmd_compare.h"
#include "cli/cmd_crashsim.h"
#include "cli/cmd_diff.h"
#include "cli/cmd_inspect.h"
#include "cli/cmd_probe.h"
#include "cli/cmd_run.h"
#include "cli/cmd_sqlite.h"
#include "cli/common.h"
#include "cli/version.h"
#include "platform/interrupt.h"

namespace durprobe::cli {
namespace {

// CLI11 messages can span lines; the user gets the first, with the subcommand's help hint.
std::string FirstLine(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

}  // namespace

int Main(int argc, char** argv) {
  CLI::App app{"durprobe: what does durability cost on this path, and why?", "durprobe"};
  app.set_version_flag("--version", VersionText());
  std::vector<Subcommand> subs = {SetupRun(app),     SetupInspect(app), SetupProbe(app),
                                  SetupSqlite(app),  SetupCompare(app), SetupDiff(app),
                                  SetupClean(app),   SetupCrashsim(app)};
  app.require_subcommand(1, 1);

  std::set<std::string> names;
  for (const Subcommand& s : subs) names.insert(s.app->get_name());
  std::vector<std::string> args(argv + 1, argv + argc);
  bool top_flag = !args.empty() && (args[0] == "--help" || args[0] == "-h" || args[0] == "--version");
  if (!top_flag && (args.empty() || names.count(args[0]) == 0)) args.insert(args.begin(), "run");
  std::reverse(args.begin(), args.end());  // CLI11 takes a reversed vector

  try {
    app.parse(args);
  } catch (const CLI::Success& e) {  // --help and --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return UsageError(FirstLine(e.what()));
  }
  platform::InstallInterruptHandlers();
  for (const Subcommand& s : subs) {
    if (app.got_subcommand(s.app)) return s.run();
  }
  return UsageError("no subcommand given");
}

}  // namespace durprobe::cli
