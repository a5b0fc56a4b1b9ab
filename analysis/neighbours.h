// Another process's I/O on a path's device, from the flush counters every run already reads
// (probes/flush_tally.h): each measurement's idle slices, in which durprobe itself does nothing,
// count only the others' flushes. Summed over a target's probes, SQLite configurations and
// concurrency cells, the busiest device's rate is the neighbour's (docs/diagnose.md, the
// `neighbour` cause). Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/report.h"

namespace durprobe::analysis {

// From this many flushes a second with nothing of durprobe's running, another process is
// flushing the device: an idle ext4 or xfs commits its journal every few seconds (well under 1 a
// second), a database or fio with --fsync=1 beside it hundreds or thousands of times.
inline constexpr double kNeighbourFlushesPerSec = 10.0;
// Idle time under which a rate is not read at all.
inline constexpr std::uint64_t kMinNeighbourIdleNs = 20'000'000;

struct DeviceBackground {
  std::string device;         // "vda"
  std::uint64_t flushes = 0;  // in the idle slices
  std::uint64_t idle_ns = 0;  // the idle slices' time
  double per_sec = 0;         // flushes / idle time
  double per_sec_low = 0;     // its one-sided 95% lower bound (Poisson)
  double per_sec_high = 0;    // and upper bound
  // The rate is kNeighbourFlushesPerSec or more beyond the counts' noise (per_sec_low).
  bool busy() const { return per_sec_low >= kNeighbourFlushesPerSec; }
};

// The busiest device's background over every counted measurement of t; unset where nothing was
// counted or the idle slices were shorter than kMinNeighbourIdleNs.
std::optional<DeviceBackground> BackgroundFlushes(const model::Target& t);

// "fio pid 1234 (16.0 MB)": the writers named, most first; "" for none.
std::string WritersText(const std::vector<model::Writer>& writers);

// neighbour_flushes (warn): the path's device was flushed by another process kNeighbourFlushes
// PerSec a second or more, beyond the noise, while durprobe stood idle: "another process flushed
// vda 4,253 times a second during this run (the most writing meanwhile: fio pid 1234 ...)".
std::vector<model::Finding> NeighbourFindings(const model::Target& t,
                                              const std::vector<model::Writer>& writers);

// The one-sided 95% lower and upper bounds of a Poisson mean from a count (Wilson-Hilferty);
// the lower is 0 for 0.
double PoissonLowerBound(std::uint64_t count);
double PoissonUpperBound(std::uint64_t count);

// Whether busier's rate is above other's beyond both counts' noise (its lower bound over the
// other's upper bound): a neighbour busier on one side where both sides had one.
bool BusierBeyondNoise(const DeviceBackground& busier, const DeviceBackground& other);

}  // namespace durprobe::analysis
