#include "cli/command_tree.h"

#include <algorithm>

namespace durprobe::cli {

std::vector<std::string> ChoicesIn(const std::string& type_name) {
  std::vector<std::string> out;
  const std::size_t open = type_name.find('{');
  const std::size_t close = type_name.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return out;
  std::string list = type_name.substr(open + 1, close - open - 1);
  std::size_t start = 0;
  while (start <= list.size()) {
    std::size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    std::string word = list.substr(start, comma - start);
    word.erase(0, word.find_first_not_of(' '));
    word.erase(word.find_last_not_of(' ') + 1);
    if (!word.empty()) out.push_back(word);
    start = comma + 1;
  }
  return out;
}

namespace {

// The type name as the help shows it, each part once ("DURATION:DURATION" -> "DURATION") and a
// choice list left to choices.
std::string ValueText(const std::string& type_name) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= type_name.size()) {
    std::size_t colon = type_name.find(':', start);
    // A ':' inside a choice list ({a:b}) is not a separator.
    const std::size_t brace = type_name.find('{', start);
    if (brace != std::string::npos && colon != std::string::npos && brace < colon) {
      colon = type_name.find(':', type_name.find('}', brace));
    }
    if (colon == std::string::npos) colon = type_name.size();
    std::string part = type_name.substr(start, colon - start);
    if (!part.empty() && part.front() != '{' &&
        std::find(parts.begin(), parts.end(), part) == parts.end()) {
      parts.push_back(part);
    }
    start = colon + 1;
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : " ") + p;
  return out;
}

OptionEntry DescribeOption(const CLI::Option& o) {
  OptionEntry e;
  e.positional = o.get_positional() && o.get_lnames().empty() && o.get_snames().empty();
  if (e.positional) {
    e.names.push_back(o.get_name(true));
  } else {
    for (const std::string& s : o.get_snames()) e.names.push_back("-" + s);
    for (const std::string& l : o.get_lnames()) e.names.push_back("--" + l);
  }
  const bool flag = o.get_type_size_max() == 0;
  if (!flag) {
    e.value = ValueText(o.get_type_name());
    e.choices = ChoicesIn(o.get_type_name());
  }
  e.default_value = o.get_default_str();
  e.help = o.get_description();
  e.required = o.get_required();
  e.repeatable = !flag && o.get_items_expected_max() > 1;
  return e;
}

CommandEntry Describe(const CLI::App& app, const std::string& name) {
  CommandEntry c;
  c.name = name;
  c.description = app.get_description();
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group().empty()) continue;  // hidden from the help, so from these too
    c.options.push_back(DescribeOption(*o));
  }
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_group().empty()) continue;
    c.commands.push_back(Describe(*sub, sub->get_name()));
  }
  return c;
}

}  // namespace

CommandEntry DescribeCommands(const CLI::App& app) { return Describe(app, ""); }

}  // namespace durprobe::cli
