// The report model: what one durprobe run found, per target path. Measurement rooms fill it;
// reporters (console, JSON, ...) only format it; analysis adds findings.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/concurrency_model.h"
#include "model/durability.h"
#include "model/path_summary_model.h"
#include "model/powercut.h"
#include "model/repeats.h"
#include "model/sqlite_model.h"
#include "platform/cgroup_io.h"
#include "platform/ebs_stats.h"
#include "platform/mount_info.h"
#include "probes/fsync_error_result.h"
#include "probes/op_cost.h"
#include "probes/probe_result.h"
#include "sqlite_bench/crashsim_result.h"
#include "sqlite_bench/crashtest_result.h"
#include "sqlite_bench/workload_result.h"

namespace durprobe::model {

inline constexpr const char* kReportSchema = "durprobe.report/1";

// A process other than durprobe that wrote while the run measured (run/writers.h), from
// /proc/PID/io before and after the run: the neighbours a report can name.
struct Writer {
  int pid = 0;
  std::string name;               // comm: "fio"
  std::uint64_t write_bytes = 0;  // sent to the block layer during the run
  std::uint64_t writes = 0;       // write calls during the run (syscw)
  bool operator==(const Writer&) const = default;
};

struct Context {
  std::string durprobe_version;
  std::string host, os, kernel, machine;
  std::string sqlite_version;
  std::string build_type;
  bool optimized = true;
  bool assertions = false;
  std::string started_at;  // ISO-8601, UTC
  std::string command;     // the subcommand that produced the report
  sqlite_bench::SqliteBuildInfo sqlite_build;
  std::string ld_preload;    // $LD_PRELOAD: a preloaded library can change what a sync does
  std::string command_line;  // argv as the user typed it, shell-quoted where needed
  // What shaped the measurement (quick, budget, ci, the probe and SQLite selections), as the
  // executor's plan had them, so a reader knows how the report was made (run::Describe). A saved
  // report's is kept as read and written back unchanged; diff compares it key by key.
  nlohmann::json options = nlohmann::json::object();
  // The CPU limit the run's cgroup had (platform/cgroup_cpu.h); version empty where none was seen.
  // stat_files is the run's own and never written.
  platform::CpuQuota cpu_quota;
  // The block I/O limits the run's cgroup had per device (platform/cgroup_io.h); version empty
  // where no I/O controller was seen.
  platform::IoLimits io_limits;
  // The processes that wrote most while the run measured, most bytes first (at most
  // run::kNamedWriters); empty where none did, or the run measured nothing.
  std::vector<Writer> writers;
  bool interrupted = false;  // SIGINT/SIGTERM arrived: the report holds what finished before it
  int interrupt_signal = 0;  // which one (2 or 15) when interrupted
};

// context.options' key for --quick, spelt once: the plan writes it (run/command_plans.h
// BudgetOptions) and QuickRun reads it.
inline constexpr const char* kQuickOption = "quick";
// Whether the run was --quick; nullopt when its options do not say (a report made before they
// did, or a command without a budget).
std::optional<bool> QuickRun(const Context& context);

enum class Severity { kInfo, kWarn, kFail };
std::string_view NameOf(Severity s);

struct Finding {
  Severity severity = Severity::kInfo;
  std::string code;     // stable snake_case
  std::string message;  // one plain sentence with what to do
  // What the finding is about when one code may be raised for several things in a run (the
  // reference probe's label for its probe_error), so it is said once per subject without
  // reading the message. Kept in the run only: the JSON does not carry it.
  std::string subject = {};
};

// What kind of item a run left unfinished.
enum class UnfinishedKind {
  kProbe,
  kOpCost,
  kConcurrency,  // a concurrency cell (or the queue-depth probe)
  kSqlite,       // a SQLite configuration
  kWorkload,
  kRound,  // compare's probe rounds
  kCrashsim,
  kCrashtest,
  kFaults,  // a filesystem of durprobe faults
};
// The last enumerator, up to which a table per UnfinishedKind is counted: one added after it
// moves this.
inline constexpr UnfinishedKind kLastUnfinishedKind = UnfinishedKind::kFaults;
// "probe", "op_cost", "concurrency", "sqlite", "workload", "round", "crashsim", "crashtest",
// "faults"
std::string_view NameOf(UnfinishedKind kind);

// Why it was left unfinished: a signal, or its phase's share of --budget ran out first.
enum class UnfinishedReason { kInterrupted, kBudget };
std::string_view NameOf(UnfinishedReason reason);  // "interrupted", "budget"

// An item the plan had for a target that never started because the run was interrupted.
struct Unfinished {
  UnfinishedKind kind = UnfinishedKind::kProbe;
  std::string label;  // "fdatasync overwrite 4 KiB", "WAL/FULL", "read"
  UnfinishedReason reason = kInterrupted;
  static constexpr UnfinishedReason kInterrupted = UnfinishedReason::kInterrupted;
  static constexpr UnfinishedReason kBudget = UnfinishedReason::kBudget;
};

// A short sample of the reference probe (run/reference.h), taken before the probes, between SQLite
// configurations and at the end, so a device that changed state is told apart from a slow layer.
struct ReferenceSample {
  std::uint64_t start_ns = 0;  // since the run started
  std::string before;          // what ran next: "probes", "WAL/FULL", "end"
  std::uint64_t ops = 0;
  std::uint64_t p50_ns = 0;
  double mean_ns = 0.0;
};

// A probe measured while the device moved (analysis/probe_drift.h): the reference probe's
// level (ReferenceLevel) in its last sample before the probe and its first after it, and the
// lowest and highest level from the one to the other. The four pass the drift thresholds.
struct DeviceMoved {
  std::size_t probe = 0;  // index in Target::probes
  double before_ns = 0.0, after_ns = 0.0;
  double low_ns = 0.0, high_ns = 0.0;
};

// Which of a device's two states (DeviceStates) a figure was measured in.
enum class DeviceState { kFast, kSlow };
// The last enumerator, up to which NameOf's table is counted: one added after it moves this.
inline constexpr DeviceState kLastDeviceState = DeviceState::kSlow;
std::string_view NameOf(DeviceState s);  // "fast", "slow"

// The device's states (analysis/device_states.h): a device that alternates between two levels
// of sync latency over the run (a cloud disk's fast and slow flushes), told from the series that
// showed it (the reference probe's samples, or a probe's 100 ms windows).
struct DeviceStates {
  std::string evidence;  // "the reference probe (fdatasync overwrite 4 KiB)", or a probe's label
  double fast_ns = 0.0;  // each state's level in that series (the median of its points)
  double slow_ns = 0.0;
  double slow_share = 0.0;  // the share of that series' time spent in the slow state
};

// One device state a probe was measured in, with the probe's figures over the windows spent in
// it alone. The whole operation's p50 and p99 (as the probe table) and the sync call's where it
// was timed apart (as check's rules read it); a p99 only from kTailMinOps operations (0 below).
struct StateFigures {
  DeviceState state = DeviceState::kFast;
  double time_share = 0.0;  // of the probe's timed windows
  std::uint64_t ops = 0;
  std::uint64_t p50_ns = 0, p99_ns = 0;
  std::uint64_t sync_ops = 0, sync_p50_ns = 0, sync_p99_ns = 0;  // 0 without a sync part
  // The 95% confidence intervals of the percentiles a rule reads (the sync call's where it was
  // timed apart, else the whole operation's), from the state's operations alone. In the run
  // only: the JSON does not carry them.
  probes::Interval rule_p50_ci, rule_p99_ci;
  // With --repeat: the state's p50 in each repeat that spent kMinRepeatStateOps operations in
  // it, their median (then also p50_ns), least and greatest: how far the state's own level moved
  // between runs, apart from how long each run spent in it.
  RepeatSpread p50_repeats;
};
// A repeat's operations in a state below which its p50 there is left out of p50_repeats.
inline constexpr std::uint64_t kMinRepeatStateOps = 20;

// A probe's figures per device state: two entries when the probe saw both states (its own
// windows split), one when it ran wholly in one (the reference samples around it agree).
struct ProbeStates {
  std::size_t probe = 0;  // index in Target::probes
  std::vector<StateFigures> states;
};

struct Target {
  std::string path;                          // absolute
  std::optional<platform::MountInfo> mount;  // set when the plan inspects (inspect, run)
  std::vector<probes::ProbeResult> probes;
  std::vector<probes::OpCostResult> op_costs;  // per-operation costs, measured by compare
  std::vector<SqliteEntry> sqlite;             // the commit matrix (analysis/sqlite_correlation.h)
  sqlite_bench::WorkloadResults sqlite_workloads;  // read, connect, locks, concurrency, WAL growth
  std::vector<sqlite_bench::CrashsimResult> crashsim;    // simulated power cuts (crashsim)
  std::vector<sqlite_bench::CrashtestResult> crashtest;  // power cuts on the crash device
  std::vector<probes::FsyncErrorsResult> fsync_errors;   // durprobe faults, per filesystem
  // A power-cut test's evidence (--evidence) that speaks for this path's device and filesystem.
  std::optional<PowercutEvidence> powercut;
  std::vector<probes::ConcurrencyResult> concurrency;      // concurrent syncers (--writers)
  std::optional<SerialVsConcurrent> serial_vs_concurrent;  // with --writers
  std::string reference_probe;             // "fdatasync overwrite 4 KiB"; empty: not sampled
  std::vector<ReferenceSample> reference;  // in time order
  // An EBS volume's statistics over the run (after - before), when the device has them.
  std::optional<platform::EbsStats> ebs;
  std::vector<DeviceMoved> moved;             // probes measured while the device moved
  std::optional<DeviceStates> device_states;  // set when the device showed two states
  std::vector<ProbeStates> probe_states;      // with device_states: each probe's figures per state
  // With --repeat N >= 2: each measured probe's figures over the repeats (model/repeats.h).
  std::vector<ProbeRepeats> probe_repeats;
  std::vector<Finding> findings;
  std::vector<Unfinished> unfinished;  // empty unless interrupted or out of budget
  // The path's effective durability (analysis::AssessDurability); unset until it is assessed.
  std::optional<Durability> durability;
  // The answer first: the summary and the settings to use (explain::AddPathSummary), decided
  // after everything else; unset / empty until then.
  std::optional<PathSummary> summary;
  std::vector<PathAdvice> advice;
};

// One rule of `durprobe check` evaluated on one path (gate/rules.h).
enum class CheckOutcome {
  kPass,
  kFail,
  kError,    // the rule could not be evaluated: a measurement is missing or failed
  kSkipped,  // the rule's primitive is unsupported here (said with the reason)
  // The device moved during the run by enough that the rule's pass or fail could have gone
  // either way (gate/drift_range.h): not measured reliably, like kError.
  kUnstable,
};
// "pass", "fail", "error", "skipped", "unstable"
std::string_view NameOf(CheckOutcome o);

// How a rule's measured value must relate to its threshold.
enum class CheckComparison { kBelow, kAtMost, kAtLeast, kEqual };
inline constexpr CheckComparison kLastCheckComparison = CheckComparison::kEqual;
std::string_view NameOf(CheckComparison c);  // "<", "<=", ">=", "=="

// What a rule's measured value and threshold count. kNone (a fact: 1 yes, 0 no) is last, as the
// one spelt "" (model/names.h ParseName stops at "").
enum class CheckUnit { kSeconds, kOpsPerSec, kCommitsPerSec, kSyncs, kFindings, kTimes, kNone };
inline constexpr CheckUnit kLastCheckUnit = CheckUnit::kNone;
std::string_view NameOf(CheckUnit u);  // "s", "ops/s", "commits/s", "syncs", "findings", "x", ""

struct CheckResult {
  std::string rule;  // stable name: "etcd_wal_fsync_p99", "max_sync_p99", "commits_WAL_FULL"
  std::string path;
  CheckOutcome outcome = CheckOutcome::kError;
  std::optional<double> measured;                        // in unit; unset when nothing was measured
  double threshold = 0.0;                                // in unit
  CheckComparison comparison = CheckComparison::kEqual;  // how measured relates to threshold
  CheckUnit unit = CheckUnit::kNone;
  std::string message;  // one line: for a failure the finding or the reason
  // Latency rules: the samples and the 95% confidence interval behind the percentile (in unit).
  std::uint64_t samples = 0;
  std::optional<double> ci_low, ci_high;
  bool tail_failure = false;  // only the tail is over: p95 under the threshold, p99 over it
  bool severe = false;        // over the rule's severe threshold (etcd: the heartbeat interval)
  bool warning = false;       // a pass with a caveat (the `durable` rule on an unproven path)
  // kUnstable: where the measured value could have been within the drift seen during the run
  // (in unit); the threshold lies inside.
  std::optional<double> drift_low, drift_high;
  // kUnstable: the figure's own interval could not decide the rule (analysis/decision.h: the
  // limit inside it, or too few samples for one): "cannot tell", re-measured like a drift.
  bool undecided = false;
  // A timing rule left unstable by the drift or undecided: how many times check re-measured its
  // probe (run/check_remeasure.h), at most kMaxRemeasures; 0 when it was not.
  std::uint32_t remeasured = 0;
};

// How measured relates to threshold as the check found it: the rule's own comparison when it
// passed ("<"), its negation when it failed (">=": "3.97 ms >= 1.00 us", never "3.97 ms < 1.00
// us"); the comparison itself when nothing was measured.
std::string RelationShown(const CheckResult& c);
// A check's measured or threshold value in its unit, for people: "8.20 ms", "512 commits/s",
// "3 syncs", "yes".
std::string FormatCheckValue(double value, CheckUnit unit);

struct Report {
  Context context;
  std::vector<Target> targets;
  std::vector<CheckResult> checks;  // filled by check; empty for the other commands
};

// Warnings about the build itself (unoptimised, assertions on), for every reporter to show.
std::vector<std::string> BuildWarnings(const Context& context);

}  // namespace durprobe::model
