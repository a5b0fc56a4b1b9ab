// node_exporter's textfile-collector format (Prometheus text exposition 0.0.4): HELP and TYPE
// lines, then samples. Sync latency as a histogram with etcd's bucket bounds (1 ms doubling to
// 8.192 s) plus finer ones below 1 ms, and as a summary with quantiles; SQLite commit rates;
// each check's pass, measured value and threshold; findings; the run's timestamp.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "render/reporter.h"

namespace durprobe::render::prometheus {

// The histogram's upper bounds, seconds, ascending (+Inf is added on output).
const std::vector<double>& SyncLatencyBuckets();

// "2026-11-30T16:09:25Z" (or with a +hh:mm offset) -> seconds since the epoch; nullopt if the
// text is not ISO-8601 in that form.
std::optional<std::int64_t> EpochSeconds(std::string_view iso8601);

// A label value with \, " and newline escaped as the format requires, other control characters
// and invalid UTF-8 shown as text as EscapeControlChars shows them ("\x1b" reads \\x1b).
std::string PromLabel(std::string_view value);

class PrometheusReporter : public Reporter {
 public:
  Status Write(const model::Report& report, std::ostream& out) const override;
};

}  // namespace durprobe::render::prometheus
