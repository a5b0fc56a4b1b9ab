// `durprobe powercut write` (docs/powercut.md), the host under test's first half: it connects to
// the witness, makes PATH/.durprobe-powercut-RUN/ (0700) with the run's secret, says HELLO, makes
// the records file (kept: it is what verify reads after the reboot, run/powercut_verify.h) and
// runs the writer (probes/powercut_writer.h, probes/powercut_append.h, or SQLite's).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "model/powercut.h"
#include "platform/platform.h"
#include "platform/tcp.h"
#include "probes/powercut_writer.h"
#include "run/powercut_names.h"
#include "sqlite_bench/powercut_sqlite.h"

namespace durprobe::run {

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

}  // namespace durprobe::run
