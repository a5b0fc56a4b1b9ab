#include "probes/flush_tally.h"

#include <algorithm>
#include <cmath>

namespace durprobe::probes {
namespace {

double Seconds(std::uint64_t ns) { return static_cast<double>(ns) / 1e9; }

// The flushes and the time the rate without the sync is read from: the control's, else idle's.
struct WithoutSync {
  std::uint64_t flushes = 0, ns = 0;
};

WithoutSync WithoutSyncOf(const FlushTally& t, const DeviceFlushes& d) {
  return t.control_ns > 0 ? WithoutSync{d.control_flushes, t.control_ns}
                          : WithoutSync{d.idle_flushes, t.idle_ns};
}

// What the slices' flushes leave per operation once `flushes` in `ns` are taken away at their rate.
double LeftPerOp(const FlushTally& t, const DeviceFlushes& d, double flushes, std::uint64_t ns) {
  if (t.ops == 0) return 0.0;
  const double rate = ns == 0 ? 0.0 : flushes / Seconds(ns);
  return std::max(
      0.0, (static_cast<double>(d.flushes) - rate * Seconds(t.ns)) / static_cast<double>(t.ops));
}

}  // namespace

double FlushTally::BackgroundPerSec(const DeviceFlushes& d) const {
  return idle_ns == 0 ? 0.0 : static_cast<double>(d.idle_flushes) / Seconds(idle_ns);
}

double FlushTally::WithoutSyncPerSec(const DeviceFlushes& d) const {
  const WithoutSync w = WithoutSyncOf(*this, d);
  return w.ns == 0 ? 0.0 : static_cast<double>(w.flushes) / Seconds(w.ns);
}

double FlushTally::PerOp(const DeviceFlushes& d) const {
  const WithoutSync w = WithoutSyncOf(*this, d);
  return LeftPerOp(*this, d, static_cast<double>(w.flushes), w.ns);
}

double FlushTally::PerOpUpperBound(const DeviceFlushes& d) const {
  const WithoutSync w = WithoutSyncOf(*this, d);
  // The one-sided 95% lower bound of a Poisson mean from w.flushes (Wilson-Hilferty).
  double least = 0.0;
  if (w.flushes > 0) {
    const double k = static_cast<double>(w.flushes);
    least = k * std::pow(std::max(0.0, 1.0 - 1.0 / (9.0 * k) - 1.645 / (3.0 * std::sqrt(k))), 3);
  }
  return LeftPerOp(*this, d, least, w.ns);
}

double FlushTally::MostPerOpUpperBound() const {
  double most = 0.0;
  for (const DeviceFlushes& d : devices) most = std::max(most, PerOpUpperBound(d));
  return most;
}

double FlushTally::MostWithoutSyncPerOp() const {
  double most = 0.0;
  for (const DeviceFlushes& d : devices) {
    if (ops > 0) {
      most = std::max(most, WithoutSyncPerSec(d) * Seconds(ns) / static_cast<double>(ops));
    }
  }
  return most;
}

double FlushTally::ControlPerWrite(const DeviceFlushes& d) const {
  if (control_ops == 0) return 0.0;
  const double own =
      static_cast<double>(d.control_flushes) - BackgroundPerSec(d) * Seconds(control_ns);
  return std::max(0.0, own / static_cast<double>(control_ops));
}

const DeviceFlushes* FlushTally::Leading() const {
  const DeviceFlushes* best = nullptr;
  for (const DeviceFlushes& d : devices) {
    if (PerOp(d) >= kFlushReachesPerOp) return &d;
    if (best == nullptr || PerOp(d) > PerOp(*best)) best = &d;
  }
  return best;
}

double FlushTally::PerOp() const {
  const DeviceFlushes* d = Leading();
  return d == nullptr ? 0.0 : PerOp(*d);
}

double FlushTally::ControlPerWrite() const {
  double most = 0.0;
  for (const DeviceFlushes& d : devices) most = std::max(most, ControlPerWrite(d));
  return most;
}

void Merge(FlushTally& into, const FlushTally& more) {
  if (!more.counted) return;
  if (!into.counted) {
    into = more;
    return;
  }
  if (into.unavailable.empty()) into.unavailable = more.unavailable;
  if (into.control_note.empty()) into.control_note = more.control_note;
  for (const DeviceFlushes& m : more.devices) {
    auto it = std::find_if(into.devices.begin(), into.devices.end(),
                           [&](const DeviceFlushes& d) { return d.name == m.name; });
    if (it == into.devices.end()) {
      into.devices.push_back(m);
      continue;
    }
    it->flushes += m.flushes;
    it->writes += m.writes;
    it->control_flushes += m.control_flushes;
    it->idle_flushes += m.idle_flushes;
  }
  into.ops += more.ops;
  into.ns += more.ns;
  into.control_ops += more.control_ops;
  into.control_ns += more.control_ns;
  into.idle_ns += more.idle_ns;
  into.silent_slices += more.silent_slices;
  into.silent_ops += more.silent_ops;
}

FlushCounter::FlushCounter(platform::Platform& platform, const FlushCounting& counting)
    : platform_(platform), counting_(counting) {
  if (!counting.requested()) return;
  tally_.counted = true;
  tally_.how = counting.how;
  tally_.unavailable = counting.unavailable;
  if (!tally_.unavailable.empty()) return;
  for (const std::string& name : counting.devices) tally_.devices.push_back({.name = name});
  active_ = true;
  Mark();
}

void FlushCounter::Mark() {
  if (!active_) return;
  Result<std::vector<platform::BlockCount>> now =
      platform::ReadBlockCounts(platform_, counting_.sys_root, counting_.devices);
  if (!now.ok()) {
    tally_.unavailable = "the device counters could not be read: " + now.status().message();
    tally_.devices.clear();
    active_ = false;
    return;
  }
  mark_ = std::move(*now);
}

std::uint64_t FlushCounter::End(Part part) {
  if (!active_) return 0;
  const std::vector<platform::BlockCount> before = std::move(mark_);
  Mark();
  if (!active_) return 0;
  std::uint64_t all = 0;
  for (std::size_t i = 0; i < mark_.size() && i < tally_.devices.size(); ++i) {
    // A counter that went back (the device was replaced) adds nothing.
    const std::uint64_t flushes =
        mark_[i].flushes >= before[i].flushes ? mark_[i].flushes - before[i].flushes : 0;
    const std::uint64_t writes =
        mark_[i].writes >= before[i].writes ? mark_[i].writes - before[i].writes : 0;
    DeviceFlushes& d = tally_.devices[i];
    all += flushes;
    switch (part) {
      case Part::kTimed:
        d.flushes += flushes;
        d.writes += writes;
        break;
      case Part::kControl:
        d.control_flushes += flushes;
        break;
      case Part::kIdle:
        d.idle_flushes += flushes;
        break;
    }
  }
  return all;
}

void FlushCounter::EndTimed(std::uint64_t ops, std::uint64_t ns) {
  if (!active_) return;
  const std::uint64_t flushes = End(Part::kTimed);
  if (active_ && flushes == 0 && ops >= kSilentSliceOps) {
    ++tally_.silent_slices;
    tally_.silent_ops += ops;
  }
  tally_.ops += ops;
  tally_.ns += ns;
}

void FlushCounter::EndControl(std::uint64_t ops, std::uint64_t ns) {
  if (!active_) return;
  End(Part::kControl);
  tally_.control_ops += ops;
  tally_.control_ns += ns;
}

void FlushCounter::EndIdle(std::uint64_t ns) {
  if (!active_) return;
  End(Part::kIdle);
  tally_.idle_ns += ns;
}

void FlushCounter::Idle(std::uint64_t ns) {
  if (!active_ || ns == 0) return;
  const std::uint64_t from = platform_.NowNanos();
  platform_.SleepNanos(ns);
  EndIdle(platform_.NowNanos() - from);
}

void FlushCounter::NoteControl(std::string note) {
  if (tally_.control_note.empty()) tally_.control_note = std::move(note);
}

}  // namespace durprobe::probes
