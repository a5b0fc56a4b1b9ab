// Whether the crash device and crashsim's model tell the same story for a configuration: the
// same class of outcome (nothing lost, acknowledged commits lost, a corrupt database).
#pragma once

#include <string_view>

#include "model/report.h"

namespace durprobe::report {

enum class CrashClass { kNone, kLost, kCorrupt };
std::string_view NameOf(CrashClass c);  // "none lost", "commits lost", "corrupt"

// The class of a crashtest row (of its states) and of a crashsim row (of its trials); none for
// a row that did not run.
CrashClass ClassOf(const sqlite_bench::CrashtestResult& row);
CrashClass ClassOf(const sqlite_bench::CrashsimResult& row);

// Sets agrees_with_crashsim on each ok crashtest row whose configuration crashsim ran on the
// same target with an ok outcome; leaves it unset elsewhere.
void CompareWithCrashsim(Target& target);

}  // namespace durprobe::report
