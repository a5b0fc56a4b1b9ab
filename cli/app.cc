#include "cli/app.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "cli/bash_completion.h"
#include "cli/cmd_check.h"
#include "cli/cmd_clean.h"
#include "cli/cmd_compare.h"
#include "cli/cmd_crashsim.h"
#include "cli/cmd_crashtest.h"
#include "cli/cmd_diff.h"
#include "cli/cmd_faults.h"
#include "cli/cmd_inspect.h"
#include "cli/cmd_powercut.h"
#include "cli/cmd_probe.h"
#include "cli/cmd_report.h"
#include "cli/cmd_run.h"
#include "cli/cmd_sqlite.h"
#include "cli/cmd_summarize.h"
#include "cli/command_line.h"
#include "cli/console_width.h"
#include "cli/exit_status.h"
#include "cli/man_page.h"
#include "cli/parse_checks.h"
#include "cli/subcommand.h"
#include "cli/version.h"
#include "platform/interrupt.h"
#include "platform/standard_streams.h"
#include "run/executor.h"
#include "text/line_width.h"

namespace durprobe::cli {
namespace {

// CLI11 messages can span lines; the user gets the first.
std::string FirstLine(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

std::size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string ShortUsage(const std::vector<std::string>& commands) {
  std::string list;
  for (const std::string& c : commands) list += (list.empty() ? "" : ", ") + c;
  return fmt::format(
      "usage: durprobe COMMAND [OPTIONS] [PATH...]   or   durprobe PATH... (a full report)\n"
      "commands: {}, help\n"
      "`durprobe help COMMAND` shows a command's options; `durprobe run .` measures here.\n",
      list);
}

}  // namespace

std::string EmptyInlineValue(const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a == "--") break;
    if (a.size() > 3 && a.rfind("--", 0) == 0 && a.back() == '=' && a.find('=') == a.size() - 1) {
      return a.substr(0, a.size() - 1);
    }
  }
  return "";
}

std::string ClosestCommand(const std::string& word, const std::vector<std::string>& commands) {
  std::string best;
  std::size_t best_distance = 3;  // closer than this counts as a typo
  for (const std::string& c : commands) {
    std::size_t d = EditDistance(word, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

namespace {

// A command made of commands (`powercut witness|write|verify`) given none, or a word that is
// none of them: the one line that names them (CLI11 would say only that one is required).
std::string NestedCommandMissing(const std::vector<Subcommand>& subs,
                                 const std::vector<std::string>& args) {
  for (const Subcommand& s : subs) {
    if (args.empty() || s.app->get_name() != args[0]) continue;
    std::vector<std::string> nested;
    for (const CLI::App* n : s.app->get_subcommands({})) nested.push_back(n->get_name());
    if (nested.empty()) return "";
    if (args.size() >= 2 && (args[1] == "--help" || args[1] == "-h" ||
                             std::find(nested.begin(), nested.end(), args[1]) != nested.end())) {
      return "";
    }
    const std::string wanted = fmt::format("{} takes one of: {} (durprobe help {})", args[0],
                                           fmt::join(nested, ", "), args[0]);
    return args.size() < 2 ? wanted
                           : fmt::format("unknown {} command '{}': {}", args[0], args[1], wanted);
  }
  return "";
}

int RunCommand(int argc, char** argv) {
  // First: the context (the CPU quota, the mount table) may be read while the options are parsed,
  // and a signal then must end the run as at any later point.
  platform::InstallInterruptHandlers();
  SetCommandLine(argc, argv);
  CLI::App app{"durprobe: what does durability cost on this path, and why?", "durprobe"};
  app.set_version_flag("-V,--version", VersionText());
  std::vector<Subcommand> subs = {SetupRun(app),      SetupInspect(app),   SetupProbe(app),
                                  SetupSqlite(app),   SetupCompare(app),   SetupDiff(app),
                                  SetupReport(app),   SetupCheck(app),     SetupSummarize(app),
                                  SetupCrashsim(app), SetupCrashtest(app), SetupFaults(app),
                                  SetupPowercut(app), SetupClean(app)};
  app.require_subcommand(1, 1);
  std::vector<std::string> names;
  for (const Subcommand& s : subs) names.push_back(s.app->get_name());

  std::vector<std::string> args(argv + 1, argv + argc);
  if (std::string empty = EmptyInlineValue(args); !empty.empty()) {
    return UsageError(fmt::format("{}= has no value after '=': give one ({} VALUE)", empty, empty));
  }
  if (args.empty()) {
    fmt::print(std::cerr, "{}", ShortUsage(names));
    return kExitUsage;
  }
  // Hidden (the build's, not a user's): the man page and the bash completion, from this very
  // App, so they say what --help says (cli/command_tree.h).
  if (args.size() == 1 && args[0] == "--man") {
    std::cout << ManPage(DescribeCommands(app), VersionNumberText());
    return kExitOk;
  }
  if (args.size() == 1 && args[0] == "--bash-completion") {
    std::cout << BashCompletion(DescribeCommands(app));
    return kExitOk;
  }
  if (args[0] == "help") {
    // Fitted to the terminal as the reports are (piped, as CLI11 lays it out).
    const std::size_t width = ConsoleWidth(platform::Default(), /*wide=*/false);
    if (args.size() == 1) {
      std::cout << text::FitLabelled(app.help(), width);
      return kExitOk;
    }
    if (args[1] == "help") {
      fmt::print(std::cout,
                 "durprobe help [COMMAND]: the commands, or one command's options with their "
                 "defaults\ncommands: {}\n",
                 fmt::join(names, ", "));
      return kExitOk;
    }
    for (const Subcommand& s : subs) {
      if (s.app->get_name() != args[1]) continue;
      // `help powercut write`: the nested command's own help, not its parent's.
      const CLI::App* shown = CommandOf(app, {args.begin() + 1, args.end()});
      if (args.size() > 2 && shown == s.app) {
        if (std::string refused = NestedCommandMissing(subs, {args.begin() + 1, args.end()});
            !refused.empty()) {
          return UsageError(refused);
        }
        return UsageError(
            fmt::format("{} has no command '{}' (durprobe help {})", args[1], args[2], args[1]));
      }
      std::cout << text::FitLabelled(shown->help(), width);
      return kExitOk;
    }
    return UsageError(
        fmt::format("unknown command '{}' (commands: {})", args[1], fmt::join(names, ", ")));
  }
  bool top_flag =
      args[0] == "--help" || args[0] == "-h" || args[0] == "--version" || args[0] == "-V";
  bool known = std::find(names.begin(), names.end(), args[0]) != names.end();
  if (!top_flag && !known) {
    // `durprobe PATH...` and `durprobe --quick .` run a full report; a word that is neither a
    // command nor an existing path is a typo of a command, most likely.
    bool is_option = args[0].rfind("-", 0) == 0;
    bool is_path = args[0].find('/') != std::string::npos || args[0].rfind(".", 0) == 0 ||
                   platform::Default().KindOf(args[0]) != platform::PathKind::kMissing;
    if (!is_option && !is_path) {
      std::string near = ClosestCommand(args[0], names);
      return UsageError(
          near.empty() ? fmt::format("unknown command '{}' (and no such path); commands: {}",
                                     args[0], fmt::join(names, ", "))
                       : fmt::format("unknown command '{}' (did you mean '{}'?)", args[0], near));
    }
    args.insert(args.begin(), "run");
  }
  if (std::string refused = NestedCommandMissing(subs, args); !refused.empty()) {
    return UsageError(refused);
  }
  const CLI::App* command = CommandOf(app, args);
  if (command != nullptr) {
    if (std::string empty = EmptyListItem(*command, args); !empty.empty()) {
      return UsageError(empty);
    }
    if (std::string misspelt = MisspeltOption(*command, args); !misspelt.empty()) {
      return UsageError(misspelt);
    }
  }
  std::reverse(args.begin(), args.end());  // CLI11 takes a reversed vector

  try {
    app.parse(args);
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << "\n";
    return kExitOk;
  } catch (const CLI::CallForHelp&) {  // the parsed subcommand's help, as `help CMD` prints it
    std::cout << text::FitLabelled(app.help(), ConsoleWidth(platform::Default(), false));
    return kExitOk;
  } catch (const CLI::Success& e) {  // --help-all and the like
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return UsageError(FirstLine(e.what()));
  }
  for (const Subcommand& s : subs) {
    if (!app.got_subcommand(s.app)) continue;
    const CLI::Option* wide = s.app->get_option_no_throw("--wide");
    SetConsoleWidth(platform::Default(), wide != nullptr && wide->count() > 0);
    return s.run();
  }
  return UsageError("no subcommand given");
}

}  // namespace

int Main(int argc, char** argv) {
  platform::ReserveClosedStandardDescriptors();
  // Before the option parser's own setup: below this limit that setup alone may overflow.
  if (Status stack = run::CheckStackLimit(platform::Default()); !stack.ok()) {
    return UsageError(stack.message());
  }
  int code = RunCommand(argc, argv);
  // A report printed to a closed or full stdout is lost: that is an error, said once (a command
  // that already said why it failed, or a SIGPIPE the run reported, keeps its own line).
  Status finished = platform::FinishStandardOutput();
  if (finished.ok() || platform::InterruptSignal() == SIGPIPE) return code;
  if (code == kExitUsage) return code;
  return UsageError("the output is lost: " + finished.message());
}

}  // namespace durprobe::cli
