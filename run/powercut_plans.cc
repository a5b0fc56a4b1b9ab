#include "run/powercut_plans.h"

#include <fmt/format.h>

#include "probes/powercut_record.h"
#include "probes/powercut_writer.h"
#include "probes/probe_spec.h"
#include "sqlite_bench/commit_spec.h"
#include "sqlite_bench/powercut_sqlite.h"
#include "text/units.h"

namespace durprobe::run {
namespace {

// The most records one file holds: the writer's bitmap of acknowledged records stays small.
constexpr std::uint64_t kMostRecords = std::uint64_t{1} << 26;

// --for: 0 when not given.
Result<std::uint64_t> DurationOf(const std::string& text) {
  if (text.empty()) return std::uint64_t{0};
  return text::ParseDurationNanos(text);
}

// The witness's address: ADDR:PORT, a real port.
Result<platform::Endpoint> WitnessOf(const std::string& text, bool port_needed) {
  Result<platform::Endpoint> witness = platform::ParseEndpoint(text);
  if (!witness.ok()) return Status::InvalidArgument("--witness " + witness.status().message());
  if (port_needed && witness->port == 0) {
    return Status::InvalidArgument("--witness " + text + ": port 0 is no witness");
  }
  return witness;
}

// A name the command line already checked against the table (CLI11's OneOf): at() cannot throw
// for one of its keys, and a name from elsewhere is refused in words.
template <typename Table>
Result<typename Table::mapped_type> Named(const Table& table, const std::string& name,
                                          const char* what) {
  auto it = table.find(name);
  if (it == table.end()) return Status::InvalidArgument(fmt::format("{} {}: unknown", what, name));
  return it->second;
}

}  // namespace

Result<WitnessOptions> MakeWitnessOptions(const PowercutWitnessRequest& request) {
  Result<platform::Endpoint> listen = platform::ParseEndpoint(request.listen);
  if (!listen.ok()) return Status::InvalidArgument("--listen " + listen.status().message());
  Result<std::uint64_t> duration = DurationOf(request.duration);
  if (!duration.ok()) return Status::InvalidArgument("--for: " + duration.status().message());
  // A duration is above zero (text::ParseDurationNanos refuses 0 and what rounds to it).
  Result<std::uint64_t> idle = text::ParseDurationNanos(request.idle_timeout);
  if (!idle.ok()) return Status::InvalidArgument("--idle-timeout: " + idle.status().message());
  WitnessOptions options;
  options.listen = *listen;
  options.log_path = request.log;
  options.duration_ns = *duration;
  options.idle_timeout_ns = *idle;
  return options;
}

Result<PowercutWritePlan> MakePowercutWritePlan(const std::string& path,
                                                const PowercutWriteRequest& request) {
  Result<platform::Endpoint> witness = WitnessOf(request.witness, true);
  if (!witness.ok()) return witness.status();
  PowercutWritePlan plan;
  plan.path = path;
  plan.witness = *witness;
  Result<probes::Primitive> primitive =
      Named(probes::PrimitiveNames(), request.primitive, "--primitive");
  if (!primitive.ok()) return primitive.status();
  plan.writer.primitive = *primitive;
  if (Status s = probes::CheckWriterPrimitive(plan.writer.primitive); !s.ok()) {
    return Status::InvalidArgument(s.message());
  }
  Result<std::uint64_t> record = text::ParseSize(request.record_size);
  Result<std::uint64_t> file = text::ParseSize(request.file_size);
  Result<std::uint64_t> duration = DurationOf(request.duration);
  if (!record.ok()) return Status::InvalidArgument("--record-size: " + record.status().message());
  if (!file.ok()) return Status::InvalidArgument("--file-size: " + file.status().message());
  if (!duration.ok()) return Status::InvalidArgument("--for: " + duration.status().message());
  if (Status s = probes::CheckRecordSize(*record); !s.ok()) {
    return Status::InvalidArgument(s.message());
  }
  if (*file / *record > kMostRecords) {
    return Status::InvalidArgument(fmt::format("--file-size {}: at most {} records of {} bytes",
                                               request.file_size, kMostRecords, *record));
  }
  if (*file < *record) {
    return Status::InvalidArgument(fmt::format("--file-size {}: smaller than one record ({} bytes)",
                                               request.file_size, *record));
  }
  plan.writer.record_size = *record;
  plan.writer.file_bytes = *file / *record * *record;
  plan.writer.max_outstanding = request.max_outstanding;
  plan.writer.duration_ns = *duration;
  if (request.mode != "file" && request.mode != "append" && request.mode != "sqlite") {
    return Status::InvalidArgument("--mode " + request.mode + ": file, append or sqlite");
  }
  plan.append = request.mode == "append";
  if (request.mode == "sqlite") {
    Result<sqlite_bench::JournalMode> journal =
        Named(sqlite_bench::JournalModeNames(), request.journal_mode, "--journal-mode");
    Result<sqlite_bench::Synchronous> sync =
        Named(sqlite_bench::SynchronousNames(), request.synchronous, "--synchronous");
    if (!journal.ok()) return journal.status();
    if (!sync.ok()) return sync.status();
    plan.sqlite = sqlite_bench::PowercutSqliteConfig{*journal, *sync};
  }
  return plan;
}

Result<PowercutVerifyPlan> MakePowercutVerifyPlan(const std::string& path,
                                                  const PowercutVerifyRequest& request) {
  Result<platform::Endpoint> witness = WitnessOf(request.witness, false);
  if (!witness.ok()) return witness.status();
  if (!request.run_id.empty()) {
    if (Status s = probes::CheckRunId(request.run_id); !s.ok()) {
      return Status::InvalidArgument(s.message());
    }
  }
  Result<std::uint64_t> timeout = text::ParseDurationNanos(request.timeout);
  if (!timeout.ok() || *timeout == 0) {
    return Status::InvalidArgument("--timeout " + request.timeout +
                                   ": a duration above 0 (e.g. 30s, 5m)");
  }
  PowercutVerifyPlan plan;
  plan.path = path;
  plan.witness = *witness;
  plan.run_id = request.run_id;
  plan.deadline_ns = *timeout;
  return plan;
}

std::string PowercutWriteMode(const PowercutWritePlan& plan) {
  if (plan.sqlite) return sqlite_bench::PowercutSqliteMode(*plan.sqlite);
  return fmt::format("{}:{}", plan.append ? "append" : "file",
                     probes::NameOf(plan.writer.primitive));
}

nlohmann::json WitnessDryRun(const WitnessOptions& options) {
  return {{"command", "powercut witness"},
          {"listen", options.listen.Text()},
          {"log", options.log_path},
          {"duration_ns", options.duration_ns},
          {"idle_timeout_ns", options.idle_timeout_ns}};
}

nlohmann::json PowercutWriteDryRun(const PowercutWritePlan& plan) {
  return {{"command", "powercut write"},
          {"path", plan.path},
          {"witness", plan.witness.Text()},
          {"mode", PowercutWriteMode(plan)},
          {"record_size", plan.writer.record_size},
          {"file_size", plan.writer.file_bytes},
          {"max_outstanding", plan.writer.max_outstanding},
          {"duration_ns", plan.writer.duration_ns}};
}

nlohmann::json PowercutVerifyDryRun(const PowercutVerifyPlan& plan,
                                    const std::string& save_evidence, const std::string& json) {
  return {{"command", "powercut verify"},
          {"path", plan.path},
          {"witness", plan.witness.Text()},
          {"run_id", plan.run_id},
          {"timeout_ns", plan.deadline_ns},
          {"save_evidence", save_evidence},
          {"json", json}};
}

}  // namespace durprobe::run
