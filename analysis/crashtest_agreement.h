// Whether the crash device and crashsim's model tell the same story for a configuration: the
// same class of outcome (nothing lost, acknowledged commits lost, a corrupt database).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/report.h"

namespace durprobe::analysis {

enum class CrashClass { kNone, kLost, kCorrupt };
std::string_view NameOf(CrashClass c);  // "none lost", "commits lost", "corrupt"

// The class of a crashtest row (of its states) and of a crashsim row (of its trials); none for
// a row that did not run.
CrashClass ClassOf(const sqlite_bench::CrashtestResult& row);
CrashClass ClassOf(const sqlite_bench::CrashsimResult& row);

// Whether a crashtest row stayed within what SQLite documents for its configuration
// (sqlite_bench::PowerLossRisk): nothing lost and nothing corrupt where it promises that, only
// the last commit lost where it may roll back, only the last few where they may go, anything
// where corruption is possible.
bool AsDocumented(const sqlite_bench::CrashtestResult& row);

// The rows that speak for the path's own filesystem on an honest device: made like the path's
// (not --fs), with states checked.
std::vector<const sqlite_bench::CrashtestResult*> PathCrashtests(const model::Target& target);

// What the path's crash states said of one configuration, for the risk column: "crash-tested:
// 0 of 612 states lost a commit", "crash-tested: 23 of 60 states lost the last commit", "...
// were corrupt"; empty when no such row ran.
std::string CrashtestCitation(const model::Target& target, sqlite_bench::JournalMode journal,
                              sqlite_bench::Synchronous sync);

// Sets agrees_with_crashsim on each ok crashtest row whose configuration crashsim ran on the
// same target with an ok outcome, on a device that keeps its flushes (honest or torn: crashsim
// models neither a device that ignores them); leaves it unset elsewhere.
void CompareWithCrashsim(model::Target& target);

}  // namespace durprobe::analysis
