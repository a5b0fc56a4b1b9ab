#include "cli/parse_checks.h"

#include <fmt/format.h>

#include "cli/app.h"

namespace durprobe::cli {
namespace {

// "--name=value" as its name, or the word itself.
std::string OptionName(const std::string& word) {
  std::size_t eq = word.find('=');
  return word.rfind("--", 0) == 0 && eq != std::string::npos ? word.substr(0, eq) : word;
}

bool HasEmptyItem(const std::string& value, char delimiter) {
  if (value.empty()) return false;  // an empty value is EmptyInlineValue's, or the option's own
  std::size_t start = 0;
  for (;;) {
    std::size_t end = value.find(delimiter, start);
    std::string item =
        value.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (item.find_first_not_of(" \t") == std::string::npos) return true;
    if (end == std::string::npos) return false;
    start = end + 1;
  }
}

}  // namespace

const CLI::App* CommandOf(const CLI::App& top, const std::vector<std::string>& args) {
  if (args.empty()) return nullptr;
  const CLI::App* command = nullptr;
  for (const CLI::App* sub : top.get_subcommands({})) {
    if (sub->get_name() == args[0]) command = sub;
  }
  if (command == nullptr || args.size() < 2) return command;
  for (const CLI::App* nested : command->get_subcommands({})) {
    if (nested->get_name() == args[1]) return nested;
  }
  return command;
}

std::string EmptyListItem(const CLI::App& command, const std::vector<std::string>& args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& word = args[i];
    if (word == "--") break;
    if (word.rfind("-", 0) != 0 || word.size() < 2) continue;
    const std::string name = OptionName(word);
    const CLI::Option* option = command.get_option_no_throw(name);
    if (option == nullptr || option->get_delimiter() == '\0') continue;
    std::string value;
    if (name.size() < word.size()) {
      value = word.substr(name.size() + 1);
    } else if (i + 1 < args.size()) {
      value = args[i + 1];
    }
    if (!HasEmptyItem(value, option->get_delimiter())) continue;
    return fmt::format("{} '{}' has an empty item: separate the items with single commas ({} a,b)",
                       name, value, name);
  }
  return "";
}

std::string MisspeltOption(const CLI::App& command, const std::vector<std::string>& args) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& l : option->get_lnames()) names.push_back("--" + l);
  }
  for (const std::string& word : args) {
    if (word == "--") break;
    if (word.rfind("--", 0) != 0 || word.size() < 3) continue;
    const std::string name = OptionName(word);
    if (command.get_option_no_throw(name) != nullptr) continue;
    std::string near = ClosestCommand(name, names);
    if (near.empty()) return "";
    // CLI11's words for an unknown option, so the near and the far case read alike.
    return fmt::format("The following argument was not expected: {} (did you mean '{}'?)", name,
                       near);
  }
  return "";
}

}  // namespace durprobe::cli
