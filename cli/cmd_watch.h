// `durprobe watch [--pid PID...] [--comm NAME] [--path DIR] [--for DURATION] [--json FILE]`:
// observe live processes' durability system calls (docs/watch.md). Parses and wires only: the
// recording is run/watch_window.h's, the meaning analysis/watch_*.h's, the text render/ and
// codec/'s.
#pragma once

#include <string>
#include <vector>

#include "cli/standard_options.h"
#include "cli/subcommand.h"

namespace durprobe::cli {

struct WatchOptions {
  std::vector<int> pids;
  std::string comm;
  std::string path;
  std::string duration;    // --for; "" until interrupted
  std::string json;        // --json FILE or -
  std::string prometheus;  // --prometheus FILE or -
  OutputOptions out;       // its -q/-v flags
};

Subcommand SetupWatch(CLI::App& app);
int RunWatch(const WatchOptions& options);

}  // namespace durprobe::cli
