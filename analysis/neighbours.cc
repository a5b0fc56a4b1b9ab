#include "analysis/neighbours.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <map>

#include "model/finding_codes.h"
#include "text/units.h"

namespace durprobe::analysis {
namespace {

struct IdleSum {
  std::uint64_t flushes = 0, idle_ns = 0;
};

void AddIdle(const probes::FlushTally& t, std::map<std::string, IdleSum>& sums) {
  if (!t.ok() || t.idle_ns == 0) return;
  for (const probes::DeviceFlushes& d : t.devices) {
    sums[d.name].flushes += d.idle_flushes;
    sums[d.name].idle_ns += t.idle_ns;
  }
}

}  // namespace

double PoissonLowerBound(std::uint64_t count) {
  if (count == 0) return 0.0;
  const double k = static_cast<double>(count);
  return k * std::pow(std::max(0.0, 1.0 - 1.0 / (9.0 * k) - 1.645 / (3.0 * std::sqrt(k))), 3);
}

std::string WritersText(const std::vector<model::Writer>& writers) {
  std::vector<std::string> parts;
  for (const model::Writer& w : writers) {
    const double mib = static_cast<double>(w.write_bytes) / (1024.0 * 1024.0);
    parts.push_back(
        fmt::format("{} pid {} ({})", w.name.empty() ? "?" : w.name, w.pid,
                    mib >= 1 ? fmt::format("{:.1f} MiB", mib) : text::FormatBytes(w.write_bytes)));
  }
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::vector<model::Finding> NeighbourFindings(const model::Target& t,
                                              const std::vector<model::Writer>& writers) {
  const std::optional<DeviceBackground> b = BackgroundFlushes(t);
  if (!b || !b->busy()) return {};
  const std::string named = WritersText(writers);
  return {{model::Severity::kWarn, model::codes::kNeighbourFlushes,
           fmt::format("another process flushed {} {} times a second during this run ({} flushes "
                       "in {} of idle slices, with nothing of durprobe's running){}: each sync "
                       "waited behind its flushes, so the figures are this device's with that "
                       "load; measure at a quiet time or give the database a device of its own",
                       b->device, text::FormatRate(b->per_sec), text::CountText(b->flushes),
                       text::FormatNanos(static_cast<double>(b->idle_ns)),
                       named.empty() ? "" : "; the most writing meanwhile: " + named)}};
}

double PoissonUpperBound(std::uint64_t count) {
  const double k = static_cast<double>(count) + 1.0;
  return k * std::pow(1.0 - 1.0 / (9.0 * k) + 1.645 / (3.0 * std::sqrt(k)), 3);
}

bool BusierBeyondNoise(const DeviceBackground& busier, const DeviceBackground& other) {
  return busier.per_sec_low > other.per_sec_high;
}

std::optional<DeviceBackground> BackgroundFlushes(const model::Target& t) {
  std::map<std::string, IdleSum> sums;
  for (const probes::ProbeResult& r : t.probes) AddIdle(r.device_flushes, sums);
  for (const model::SqliteEntry& e : t.sqlite) AddIdle(e.result.device_flushes, sums);
  for (const probes::ConcurrencyResult& c : t.concurrency) AddIdle(c.device_flushes, sums);
  std::optional<DeviceBackground> busiest;
  for (const auto& [name, sum] : sums) {
    if (sum.idle_ns < kMinNeighbourIdleNs) continue;
    DeviceBackground b;
    b.device = name;
    b.flushes = sum.flushes;
    b.idle_ns = sum.idle_ns;
    const double seconds = static_cast<double>(sum.idle_ns) / 1e9;
    b.per_sec = static_cast<double>(sum.flushes) / seconds;
    b.per_sec_low = PoissonLowerBound(sum.flushes) / seconds;
    b.per_sec_high = PoissonUpperBound(sum.flushes) / seconds;
    if (!busiest || b.per_sec > busiest->per_sec) busiest = b;
  }
  return busiest;
}

}  // namespace durprobe::analysis
