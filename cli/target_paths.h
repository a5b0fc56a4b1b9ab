// The paths a measuring command is given (run/target_paths.h), under the name the commands use.
#pragma once

#include "run/target_paths.h"

namespace durprobe::cli {

using run::ResolveTargets;

}  // namespace durprobe::cli
