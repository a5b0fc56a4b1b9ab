// `durprobe powercut verify` (docs/powercut.md), after the reboot: the run's files opened as the
// writer left them (run/powercut_files.h), the witness asked what it holds of the run with the
// run's secret, each acknowledged record read back (probes/powercut_reader.h,
// probes/powercut_append.h, sqlite_bench/powercut_sqlite_copy.h) and the evidence built
// (model/powercut.h) with the device and filesystem the path is on.
#pragma once

#include <cstdint>
#include <string>

#include "model/powercut.h"
#include "platform/platform.h"
#include "platform/tcp.h"

namespace durprobe::run {

struct PowercutVerifyPlan {
  std::string path;  // resolved, absolute
  platform::Endpoint witness;
  std::string run_id;                            // empty: the one run under path
  std::uint64_t timeout_ns = 10'000'000'000ull;  // the witness silent this long: abandoned
  // The whole exchange with the witness must end within this (--timeout): a witness that
  // trickles or floods its answer is abandoned at it.
  std::uint64_t deadline_ns = 300'000'000'000ull;
};

// The evidence, verdict decided. Interrupted when a signal arrived (at once, whatever the witness
// does); InvalidArgument (exit 2) for a run the witness does not know,
// none or several runs under path without --run-id, or no records file; Error when the witness
// cannot be reached or the records cannot be read.
Result<model::PowercutEvidence> RunPowercutVerify(platform::Platform& platform,
                                                  const PowercutVerifyPlan& plan);

}  // namespace durprobe::run
