// What the executor's two schedules (run/plan.h Schedule: run/path_by_path.h, run/interleaved.h)
// run on, and the steps they and the phases share; what each item is planned to take is
// run/planned_time.h's, the reference probe and the rebasing of results to the run's start
// run/reference.h's.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/report.h"
#include "model/run_events.h"
#include "platform/platform.h"
#include "platform/scratch.h"
#include "run/deadline.h"
#include "run/plan.h"
#include "run/progress.h"

namespace durprobe::run {

struct RunState {
  platform::Platform& platform;
  const Plan& plan;
  model::RunListener& listener;
  Progress& progress;
  model::Report& report;
  std::vector<std::unique_ptr<platform::ScratchDir>>& scratch;  // one per path, when measuring
  std::uint64_t origin_ns = 0;  // the run's start: results are rebased to it (run/reference.h)
  Timeline& timeline;           // the budget's deadlines (run/deadline.h)
  // Why the run stopped before its end (a scratch moved: ScratchDir::CheckInPlace), else ok.
  Status* stopped = nullptr;
};

// Fills target.mount, adds the mount and environment findings and the durability verdict from
// the layers; what cannot be identified becomes a finding (identification never stops a run).
// With evidence (--evidence), a power-cut test's result joins the device layer when it speaks
// for the path (analysis/powercut_verdict.h).
void InspectTarget(platform::Platform& platform, const model::Context& context,
                   model::Target& target, const model::PowercutEvidence* evidence = nullptr);

// True once SIGINT or SIGTERM arrived (platform/interrupt.h); a schedule then starts nothing more.
bool Interrupted();

// Whether a step may start: no signal came, the phase has time left and every scratch is still
// where it was made (else s.stopped says which moved).
bool MayStart(const RunState& s);
// MayStart for a step with a reserve of operations (a probe whose claim needs a count): its
// phase may be spent, the run's deadline not (nor the phase's when the SQLite matrix comes after
// it: ReserveDeadlineNs).
bool MayStartReserved(const RunState& s);
// Until when a reserve of operations may run: the run's deadline, unless the SQLite matrix comes
// after the probes, which then keeps its share (the probes' phase deadline): on a path with slow
// syncs, `run --quick`'s reserve once took the whole budget and left the matrix none.
std::uint64_t ReserveDeadlineNs(const RunState& s);
// Whether every scratch is still in place; the first that is not is recorded in s.stopped.
bool ScratchesInPlace(const RunState& s);
// Why a step is not run now: the signal, else the budget.
model::UnfinishedReason StopReason();
// A SQLite configuration that finished only some of its repetitions, as unfinished lists it:
// "WAL/FULL x1 reused 100B: 2 of 5 repetitions".
std::string RepetitionsLabel(const std::string& label, std::uint32_t done, std::uint32_t planned);
// An item that ran in only some of the repeats (--repeat), as unfinished lists it:
// "fdatasync overwrite 4 KiB: 2 of 3 repeats".
std::string RepeatsLabel(const std::string& label, int done, int planned);
// A phase's name in the progress line, with the repeat under way when there are several:
// "repeat 2/3 probe".
std::string RepeatPhase(const std::string& phase, int repeat, int repeats);

}  // namespace durprobe::run
