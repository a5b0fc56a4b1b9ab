#include "cli/man_page.h"

#include <fmt/format.h>

namespace durprobe::cli {

std::string RoffEscape(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

namespace {

std::string Join(const std::vector<std::string>& words, const std::string& sep) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : sep) + w;
  return out;
}

// ".TP" entry: the names in bold, the value in italics, then the help, choices and default.
void Option(std::string& page, const OptionEntry& o) {
  page += ".TP\n";
  if (o.positional) {
    page += fmt::format("\\fI{}\\fR{}\n", RoffEscape(o.names.front()), o.repeatable ? "..." : "");
  } else {
    std::vector<std::string> names;
    for (const std::string& n : o.names) names.push_back("\\fB" + RoffEscape(n) + "\\fR");
    page += Join(names, ", ");
    if (!o.value.empty()) page += " \\fI" + RoffEscape(o.value) + "\\fR";
    page += "\n";
  }
  std::string help = o.help;
  if (o.required) help += (help.empty() ? "" : " ") + std::string("(required)");
  page += RoffEscape(help) + "\n";
  if (!o.choices.empty()) {
    page += ".br\nOne of: " + RoffEscape(Join(o.choices, ", ")) + ".\n";
  }
  if (!o.default_value.empty()) page += ".br\nDefault: " + RoffEscape(o.default_value) + ".\n";
}

std::string Synopsis(const std::string& path, const CommandEntry& c) {
  std::string line = fmt::format("\\fBdurprobe {}\\fR", RoffEscape(path));
  if (!c.options.empty()) line += " [\\fIOPTIONS\\fR]";
  if (!c.commands.empty()) line += " \\fICOMMAND\\fR";
  for (const OptionEntry& o : c.options) {
    if (!o.positional) continue;
    std::string word = "\\fI" + RoffEscape(o.names.front()) + "\\fR" + (o.repeatable ? "..." : "");
    line += " " + (o.required ? word : "[" + word + "]");
  }
  return line;
}

// One section per command; a command made of commands (powercut) gets one per nested command.
void Command(std::string& page, const std::string& path, const CommandEntry& c) {
  page += fmt::format(".SS \"{}\"\n", RoffEscape(path));
  page += Synopsis(path, c) + "\n.PP\n" + RoffEscape(c.description) + "\n";
  for (const OptionEntry& o : c.options) Option(page, o);
  for (const CommandEntry& n : c.commands) Command(page, path + " " + n.name, n);
}

}  // namespace

std::string ManPage(const CommandEntry& top, const std::string& version) {
  std::string page;
  page += fmt::format(".TH DURPROBE 1 \"\" \"{}\" \"User Commands\"\n", RoffEscape(version));
  page += ".SH NAME\ndurprobe \\- measure what durability costs on a path, and why\n";
  page += ".SH SYNOPSIS\n\\fBdurprobe\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIPATH\\fR...]\n";
  page += ".br\n\\fBdurprobe\\fR \\fIPATH\\fR...\n.br\n\\fBdurprobe help\\fR [\\fICOMMAND\\fR]\n";
  page += ".SH DESCRIPTION\n" + RoffEscape(top.description) + "\n.PP\n";
  page += RoffEscape(
      "A first word that is a path (or an option) runs a full report, as `durprobe run` does. "
      "Three common jobs: why host B commits slower than host A (durprobe run --json a.json on "
      "each host, then durprobe diff a.json b.json); what a container mount costs (durprobe "
      "compare PATH PATH); a provisioning gate (durprobe check PATH --preset etcd).\n");
  page += ".SH OPTIONS\n";
  for (const OptionEntry& o : top.options) Option(page, o);
  page += ".SH COMMANDS\n";
  for (const CommandEntry& c : top.commands) Command(page, c.name, c);
  page += ".SH EXIT STATUS\n";
  page += RoffEscape(
      "0 done; 1 a measurement failed (a probe's sync or write returned an error, a SQLite "
      "configuration or workload failed); 2 bad input, or not enough free space (one line on "
      "stderr naming the problem); 130 or 143 interrupted by SIGINT or SIGTERM. check: 0 every "
      "rule passed, 1 at least one failed, 2 could not measure.\n");
  page += ".SH SEE ALSO\n";
  page += RoffEscape(
      "fio(1), sqlite3(1). The documentation in /usr/share/doc/durprobe (or docs/ in the "
      "source tree): start.md, diagnose.md, provisioning.md, findings.md, json.md.\n");
  return page;
}

}  // namespace durprobe::cli
