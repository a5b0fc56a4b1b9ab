#include "model/report.h"

#include <fmt/format.h>

#include "platform/enum_table.h"
#include "text/units.h"

namespace durprobe::model {

std::optional<bool> QuickRun(const Context& c) {
  auto it = c.options.find(kQuickOption);
  if (it == c.options.end() || !it->is_boolean()) return std::nullopt;
  return it->get<bool>();
}

std::string_view NameOf(Severity s) {
  switch (s) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarn:
      return "warn";
    case Severity::kFail:
      return "fail";
  }
  return "info";
}

std::string_view NameOf(UnfinishedKind kind) {
  switch (kind) {
    case UnfinishedKind::kProbe:
      return "probe";
    case UnfinishedKind::kOpCost:
      return "op_cost";
    case UnfinishedKind::kConcurrency:
      return "concurrency";
    case UnfinishedKind::kSqlite:
      return "sqlite";
    case UnfinishedKind::kWorkload:
      return "workload";
    case UnfinishedKind::kRound:
      return "round";
    case UnfinishedKind::kCrashsim:
      return "crashsim";
    case UnfinishedKind::kCrashtest:
      return "crashtest";
    case UnfinishedKind::kFaults:
      return "faults";
  }
  return "";
}

std::string_view NameOf(UnfinishedReason reason) {
  switch (reason) {
    case UnfinishedReason::kInterrupted:
      return "interrupted";
    case UnfinishedReason::kBudget:
      return "budget";
  }
  return "";
}

constexpr platform::TextRow<DeviceState> kDeviceStateNames[] = {
    {DeviceState::kFast, "fast"},
    {DeviceState::kSlow, "slow"},
};
static_assert(platform::OneRowPerValue(kDeviceStateNames, kLastDeviceState),
              "one name per DeviceState");

std::string_view NameOf(DeviceState s) { return platform::TextIn(kDeviceStateNames, s); }

constexpr platform::TextRow<CheckComparison> kCheckComparisonNames[] = {
    {CheckComparison::kBelow, "<"},
    {CheckComparison::kAtMost, "<="},
    {CheckComparison::kAtLeast, ">="},
    {CheckComparison::kEqual, "=="},
};
static_assert(platform::OneRowPerValue(kCheckComparisonNames, kLastCheckComparison),
              "one name per CheckComparison");

std::string_view NameOf(CheckComparison c) { return platform::TextIn(kCheckComparisonNames, c); }

constexpr platform::TextRow<CheckUnit> kCheckUnitNames[] = {
    {CheckUnit::kSeconds, "s"},
    {CheckUnit::kOpsPerSec, "ops/s"},
    {CheckUnit::kCommitsPerSec, "commits/s"},
    {CheckUnit::kSyncs, "syncs"},
    {CheckUnit::kFindings, "findings"},
    {CheckUnit::kTimes, "x"},
    {CheckUnit::kNone, ""},
};
static_assert(platform::OneRowPerValue(kCheckUnitNames, kLastCheckUnit), "one name per CheckUnit");

std::string_view NameOf(CheckUnit u) { return platform::TextIn(kCheckUnitNames, u); }

std::string_view NameOf(CheckOutcome o) {
  switch (o) {
    case CheckOutcome::kPass:
      return "pass";
    case CheckOutcome::kFail:
      return "fail";
    case CheckOutcome::kError:
      return "error";
    case CheckOutcome::kSkipped:
      return "skipped";
    case CheckOutcome::kUnstable:
      return "unstable";
  }
  return "error";
}

std::string RelationShown(const CheckResult& c) {
  if (c.outcome != CheckOutcome::kFail || !c.measured) return std::string(NameOf(c.comparison));
  switch (c.comparison) {
    case CheckComparison::kBelow:
      return ">=";
    case CheckComparison::kAtMost:
      return ">";
    case CheckComparison::kAtLeast:
      return "<";
    case CheckComparison::kEqual:
      return "!=";
  }
  return "not " + std::string(NameOf(c.comparison));
}

std::string FormatCheckValue(double value, CheckUnit unit) {
  switch (unit) {
    case CheckUnit::kSeconds:
      return text::FormatNanos(value * 1e9);
    case CheckUnit::kNone:
      return value != 0.0 ? "yes" : "no";
    case CheckUnit::kSyncs:
    case CheckUnit::kFindings:
      return fmt::format("{:.0f} {}", value, NameOf(unit));
    case CheckUnit::kOpsPerSec:
    case CheckUnit::kCommitsPerSec:
    case CheckUnit::kTimes:
      break;
  }
  return fmt::format("{} {}", text::FormatRate(value), NameOf(unit));
}

std::vector<std::string> BuildWarnings(const Context& context) {
  std::vector<std::string> w;
  if (!context.optimized) {
    w.push_back(
        "this durprobe build is unoptimised (" + context.build_type +
        "): harness overhead may show in fast paths; build with -DCMAKE_BUILD_TYPE=Release");
  }
  if (context.assertions) w.push_back("this durprobe build has assertions enabled");
  return w;
}

}  // namespace durprobe::model
