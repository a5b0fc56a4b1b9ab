// `durprobe powercut write` and `verify` (docs/powercut.md), the host under test's two halves:
// write connects to the witness, makes PATH/.durprobe-powercut-RUN/ (0700) with the run's secret,
// says HELLO, makes the records file (kept: it is what verify reads after the reboot) and runs
// the writer (probes/powercut_writer.h); verify opens the run's files as the writer left them
// (run/powercut_files.h), asks the witness what it holds of the run with its secret, reads each
// acknowledged record back (probes/powercut_reader.h) and builds the evidence (model/powercut.h)
// with the device and filesystem the path is on.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "model/powercut.h"
#include "platform/platform.h"
#include "platform/tcp.h"
#include "probes/powercut_writer.h"
#include "sqlite_bench/powercut_sqlite.h"

namespace durprobe::run {

inline constexpr std::string_view kPowercutDirPrefix = ".durprobe-powercut-";
inline constexpr char kPowercutRecordsFile[] = "records";
// The machine's boot id when the run started, synced before the first record (verify compares).
inline constexpr char kPowercutBootIdFile[] = "boot-id";

struct PowercutWritePlan {
  std::string path;  // resolved, absolute
  platform::Endpoint witness;
  probes::PowercutWriterOptions writer;
  // --mode sqlite: rows committed in a database instead of records synced in a file.
  std::optional<sqlite_bench::PowercutSqliteConfig> sqlite;
  // --mode append: records appended to growing files, round after round
  // (probes/powercut_append.h), instead of overwritten in a preallocated one.
  bool append = false;
  std::uint64_t connect_timeout_ns = 5'000'000'000ull;
  std::string run_id;  // empty: a new random one
};

// What the writer is about to do, for the console (said before the first record).
struct PowercutWriteStart {
  std::string run_id;
  std::string host;
  std::string directory;  // PATH/.durprobe-powercut-RUN
  std::string witness;
};

// Errors before anything is written: the witness unreachable or refusing (nothing written), the
// directory not creatable, the file not preallocatable. Once writing, the result says why it
// stopped.
Result<probes::PowercutWriteResult> RunPowercutWrite(
    platform::Platform& platform, const PowercutWritePlan& plan,
    const std::function<void(const PowercutWriteStart&)>& on_start);

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
Result<report::PowercutEvidence> RunPowercutVerify(platform::Platform& platform,
                                                   const PowercutVerifyPlan& plan);

}  // namespace durprobe::run
