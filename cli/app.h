// Builds the command line and dispatches to a subcommand. main() only calls Main().
#pragma once

namespace durprobe::cli {

// Parses argv (a missing subcommand means `run`), runs the subcommand, returns the exit status.
// Parse errors print one line and return 2.
int Main(int argc, char** argv);

}  // namespace durprobe::cli
