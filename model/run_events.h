// What an executor announces while it builds a report, so a console can print each section as
// soon as it is known and a progress line can show where the run is. Listeners only format; the
// executor (run/) calls them in this order per target: TargetStarted, MountKnown (when
// inspected), ProbeDone for each probe, SqliteDone for each configuration, WorkloadDone for each
// workload, TargetDone (findings complete). Progress comes before each item starts; while it runs,
// a listener that asks for ticks (TickIntervalNs) gets ProgressTick for it from another thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/report.h"

namespace durprobe::model {

struct ProgressEvent {
  std::string phase;      // "probe", "sqlite", "workload", "round 2/3 probe", ...
  std::string item;       // what starts now: "/data: fdatasync overwrite 4 KiB"
  std::size_t index = 0;  // items started before this one, over the whole run
  std::size_t total = 0;  // items planned over the whole run
  std::uint64_t elapsed_ns = 0;
  std::uint64_t remaining_ns = 0;  // an estimate: planned time of what is left, scaled
};

class RunListener {
 public:
  virtual ~RunListener() = default;
  virtual void RunStarted(const Context&) {}
  virtual void TargetStarted(const Target&) {}
  virtual void MountKnown(const Target&) {}
  virtual void ProbeDone(const Target&, const probes::ProbeResult&) {}
  // entry is the configuration just finished, with its correlation against the target's probes.
  virtual void SqliteDone(const Target&, const SqliteEntry&) {}
  // name is the workload's ("read", "locks", ...); its results are in target.sqlite_workloads.
  virtual void WorkloadDone(const Target&, const std::string& /*name*/) {}
  virtual void TargetDone(const Target&) {}
  virtual void Progress(const ProgressEvent&) {}
  // How often this listener wants ProgressTick while an item runs; 0 (the default) for never.
  virtual std::uint64_t TickIntervalNs() const { return 0; }
  // The item of the latest Progress, still running, with elapsed and the estimate as of now.
  // Called on the ticker's thread, concurrently with the other events: guard what it touches.
  virtual void ProgressTick(const ProgressEvent&) {}
  // The whole report, complete or cut short (context.interrupted).
  virtual void RunFinished(const Report&) {}
};

// Forwards every event to each listener in turn.
class ListenerList : public RunListener {
 public:
  void Add(RunListener* listener) {
    if (listener != nullptr) listeners_.push_back(listener);
  }
  void RunStarted(const Context& c) override {
    for (auto* l : listeners_) l->RunStarted(c);
  }
  void TargetStarted(const Target& t) override {
    for (auto* l : listeners_) l->TargetStarted(t);
  }
  void MountKnown(const Target& t) override {
    for (auto* l : listeners_) l->MountKnown(t);
  }
  void ProbeDone(const Target& t, const probes::ProbeResult& r) override {
    for (auto* l : listeners_) l->ProbeDone(t, r);
  }
  void SqliteDone(const Target& t, const SqliteEntry& e) override {
    for (auto* l : listeners_) l->SqliteDone(t, e);
  }
  void WorkloadDone(const Target& t, const std::string& name) override {
    for (auto* l : listeners_) l->WorkloadDone(t, name);
  }
  void TargetDone(const Target& t) override {
    for (auto* l : listeners_) l->TargetDone(t);
  }
  void Progress(const ProgressEvent& e) override {
    for (auto* l : listeners_) l->Progress(e);
  }
  // The shortest interval any listener asked for.
  std::uint64_t TickIntervalNs() const override {
    std::uint64_t ns = 0;
    for (auto* l : listeners_) {
      std::uint64_t want = l->TickIntervalNs();
      if (want != 0 && (ns == 0 || want < ns)) ns = want;
    }
    return ns;
  }
  void ProgressTick(const ProgressEvent& e) override {
    for (auto* l : listeners_) l->ProgressTick(e);
  }
  void RunFinished(const Report& r) override {
    for (auto* l : listeners_) l->RunFinished(r);
  }

 private:
  std::vector<RunListener*> listeners_;
};

}  // namespace durprobe::model
