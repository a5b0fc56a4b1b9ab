// Why two paths differ, ranked: every difference between the two sides that a knowledge entry
// (explain/cause_table.h) stands for is scored by how well the measured deltas
// (explain/cause_signature.h) fit what that cause would move, and the causes come out
// best first, each with one line of evidence, its advice, and for the leading one the command
// that tests it. diff and compare both rank (docs/diagnose.md, "Why, ranked"). Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "explain/cause_signature.h"
#include "explain/diff_differences.h"
#include "model/report.h"

namespace durprobe::explain {

// How `compare --try` runs a cause's test (cli/compare_try.cc).
enum class TrialKind {
  kComparePaths,  // compare paths[0] with paths[1] (a layer against the filesystem under it)
  kNocowDir,      // compare paths[0] with a chattr +C directory made in it
  kSqliteWal,     // DELETE/FULL against WAL/FULL on paths[0]
};
// The last enumerator, up to which NameOf's table is counted: one added after it moves this.
inline constexpr TrialKind kLastTrialKind = TrialKind::kSqliteWal;
std::string_view NameOf(TrialKind k);  // "compare_paths", "nocow_dir", "sqlite_wal"

// The command that tests a cause on the spot, and how `compare --try` runs it.
struct Trial {
  // Unset: the test changes the system (a remount), or needs another host, so it is only
  // suggested.
  std::optional<TrialKind> kind;
  std::string command;  // what a user types
  std::vector<std::string> paths;
  std::string note;  // why --try does not run it, when kind is unset
};

struct Cause {
  std::string key;       // the knowledge entry: "barrier", "fuse", "btrfs_cow", ...
  double score = 0;      // 0..1: how well the measured deltas fit the cause (x its specificity)
  std::string side;      // the side that has it ("a", "b", "[2]"); empty for a difference of kind
  std::string what;      // the difference itself: "b mounts with barrier=0"
  std::string evidence;  // one line: what moved, what did not, and whether that fits
  std::string advice;
  std::vector<std::string> differences;  // the report keys it stands for
  Trial trial;
};

// Two sides to rank: their targets, contexts (null: the same process, as in compare), names
// ("a", "b" or "[1]", "[2]"), the configurations diff matched, and the differences found.
struct CauseInputs {
  const model::Target* a = nullptr;
  const model::Target* b = nullptr;
  const model::Context* context_a = nullptr;
  const model::Context* context_b = nullptr;
  std::string name_a = "a", name_b = "b";
  const std::vector<ConfigDiff>* configs = nullptr;
  std::vector<Difference> differences;
  // a and b come from two runs (diff), so each saw the device in a state of its own; false for
  // compare's paths, measured in the same rounds.
  bool separate_runs = false;
};

// Best first; ties keep the knowledge table's order. Empty when nothing a cause stands for
// differs.
std::vector<Cause> RankCauses(const CauseInputs& in);

// Keys that name rather than configure: device numbers and names, mount points, sources, backing
// and layer paths, and the wording that explains a role. They say which, not how.
bool IdentifiesOnly(const std::string& key);
// The endings IdentifiesOnly reads ("mount_point", "device.name", ...), each with its leading dot:
// key names the JSON report writes (tests/explain/cause_keys_test.cc holds them to it).
const std::vector<std::string_view>& IdentityKeyEndings();
// Removes the IdentifiesOnly keys, unless nothing else differs (then they are all there is).
void DropIdentityKeys(std::vector<Difference>& differences);

}  // namespace durprobe::explain
