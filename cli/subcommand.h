// What a subcommand's setup hands back to Main: the parsed CLI11 app and the function that runs it.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace durprobe::cli {

// A parsed subcommand and the function that runs it, returning the exit status.
struct Subcommand {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

}  // namespace durprobe::cli
