// The reference probe and the run's timeline. The reference probe is a short probe of one fixed
// primitive and size, sampled before the probes, before the SQLite matrix and after each of its
// rounds (in compare: before each configuration on each path) and at the end,
// so drift analysis (analysis/drift.h) can tell a device that changed state from a slow
// layer. Measurement keeps monotonic clock readings; the report keeps ns since the run started, and
// the schedules rebase every result as it arrives.
#pragma once

#include <cstdint>
#include <string>

#include "model/report.h"
#include "platform/platform.h"
#include "probes/probe_result.h"
#include "probes/timed_loop.h"
#include "run/deadline.h"
#include "sqlite_bench/commit_result.h"

namespace durprobe::run {

// The reference probe works in this subdirectory of the scratch directory (made and removed
// around each sample), so its syncs are told apart from SQLite's in a trace.
inline constexpr const char* kReferenceDir = "reference";

// fdatasync overwrite 4 KiB (fsync where fdatasync is missing) on a 1 MiB file.
probes::ProbeSpec ReferenceSpec(platform::Platform& platform);
// At most 40 operations or 100 ms after a 2-operation warm-up (20 ms at most); with a share
// (the time the probe it precedes may take), warm-up and timed phase together within a tenth of
// it, so the reference never costs a short probe most of its time.
probes::StopRule ReferenceRule(std::uint64_t share_ns = kNoDeadline);

// Takes one sample in dir and appends it to target.reference (labelled `before`); a sample that
// fails is left out, and its failure is a probe_error finding (once per path). Its file is 1 MiB,
// or file_size (the run's --file-size) when that is smaller, so it fits where the probes' do.
// share_ns bounds it as ReferenceRule says.
void SampleReference(platform::Platform& platform, const std::string& dir,
                     const std::string& before, std::uint64_t origin_ns, model::Target& target,
                     std::uint64_t file_size, std::uint64_t share_ns = kNoDeadline);

// Clock readings in r made relative to origin_ns (the run's start).
void Rebase(probes::ProbeResult& r, std::uint64_t origin_ns);
void Rebase(sqlite_bench::CommitResult& r, std::uint64_t origin_ns);

}  // namespace durprobe::run
