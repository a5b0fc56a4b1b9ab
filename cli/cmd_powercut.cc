#include "cli/cmd_powercut.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/exit_status.h"
#include "cli/target_paths.h"
#include "cli/validators.h"
#include "codec/powercut_json.h"
#include "platform/interrupt.h"
#include "platform/tcp.h"
#include "probes/powercut_record.h"
#include "probes/primitive_ops.h"
#include "render/console/powercut_console.h"
#include "run/powercut.h"
#include "run/powercut_verify.h"
#include "run/powercut_witness.h"
#include "sqlite_bench/commit_spec.h"
#include "sqlite_bench/powercut_sqlite.h"
#include "text/units.h"

namespace durprobe::cli {
namespace {

// --for: 0 when not given.
Result<std::uint64_t> DurationOf(const std::string& text) {
  if (text.empty()) return std::uint64_t{0};
  return text::ParseDurationNanos(text);
}

int PrintDryRun(const nlohmann::json& plan) {
  std::cout << plan.dump(2) << "\n";
  return kExitOk;
}

// A report destination (--save-evidence, --json) checked before anything runs: its directory
// reached without another user's symlink.
Status CheckFile(platform::Platform& platform, const std::string& option, const std::string& path) {
  if (path.empty() || path == "-") return Status::Ok();
  Result<platform::DestinationFile> file = platform.ResolveDestination(path);
  if (!file.ok() && file.status().error_number() != ENOENT) {
    return Status::InvalidArgument(fmt::format("{} {}: {}", option, path, file.status().message()));
  }
  return Status::Ok();
}

Status WriteFile(platform::Platform& platform, const std::string& path, const std::string& text) {
  if (path.empty()) return Status::Ok();
  if (path == "-") {
    std::cout << text;
    std::cout.flush();
    return Status::Ok();
  }
  return platform.ReplaceFileAtomically(path, text);
}

}  // namespace

Subcommand SetupPowercut(CLI::App& app) {
  auto o = std::make_shared<PowercutCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "powercut", "A real power cut across two hosts: witness, write, verify (docs/powercut.md)");
  sub->require_subcommand(1, 1);
  CLI::App* witness = sub->add_subcommand(
      "witness", "On the second host: log every acknowledgement durably and serve them back");
  witness->add_option("--listen", o->listen, "ADDR:PORT to listen on (0.0.0.0:7199)")->required();
  witness->add_option("--log", o->log, "The log file (created; reloaded when it exists)")
      ->required();
  witness->add_option("--for", o->duration, "Stop after this long (default: at SIGINT/SIGTERM)")
      ->check(Duration());
  witness
      ->add_option("--idle-timeout", o->idle_timeout,
                   "Close a connection silent this long (30s; a writer holding a run: 10 min)")
      ->check(Duration());
  witness->add_flag("--dry-run", o->dry_run, "Print the plan as JSON and start nothing");

  CLI::App* write = sub->add_subcommand(
      "write", "On the host under test: sync records and tell the witness each one, then cut");
  write->add_option("PATH", o->path, "Directory on the filesystem and device to test")->required();
  write->add_option("--witness", o->witness, "The witness's ADDR:PORT")->required();
  write->add_option("--primitive", o->primitive, "How each record is made durable")
      ->transform(OneOf(KeysOf(probes::PrimitiveNames()), "primitive"))
      ->capture_default_str();
  write
      ->add_option("--mode", o->mode,
                   "file: records overwritten in a preallocated file; append: records appended "
                   "to growing files; sqlite: one row committed per record")
      ->transform(OneOf({"file", "append", "sqlite"}, "mode"))
      ->capture_default_str();
  write->add_option("--journal-mode", o->journal_mode, "With --mode sqlite: SQLite's journal_mode")
      ->transform(OneOf(KeysOf(sqlite_bench::JournalModeNames()), "journal mode"))
      ->capture_default_str();
  write->add_option("--synchronous", o->synchronous, "With --mode sqlite: SQLite's synchronous")
      ->transform(OneOf(KeysOf(sqlite_bench::SynchronousNames()), "synchronous"))
      ->capture_default_str();
  write->add_option("--record-size", o->record_size, "Bytes per record (512 to 1MiB)")
      ->check(Size())
      ->capture_default_str();
  write
      ->add_option("--file-size", o->file_size,
                   "Records per file: file mode preallocates it and goes round it; append mode "
                   "starts a new file (round) when one is full")
      ->check(Size())
      ->capture_default_str();
  write
      ->add_option("--max-outstanding", o->max_outstanding,
                   "Acks the witness may leave unanswered before the writer waits, then stops")
      ->check(InRange(1, 1e7))
      ->capture_default_str();
  write->add_option("--for", o->duration, "Stop after this long (default: until the power goes)")
      ->check(Duration());
  write->add_flag("--dry-run", o->dry_run, "Print the plan as JSON and write nothing");

  CLI::App* verify = sub->add_subcommand(
      "verify", "After the reboot: read every acknowledged record back, passed or failed");
  verify->add_option("PATH", o->path, "The directory write was given")->required();
  verify->add_option("--witness", o->witness, "The witness's ADDR:PORT")->required();
  verify->add_option("--run-id", o->run_id, "The run to verify (default: the only one under PATH)");
  verify
      ->add_option("--timeout", o->timeout,
                   "Give up (exit 2) when the witness has not answered in full by then")
      ->check(Duration())
      ->capture_default_str();
  verify->add_option("--save-evidence", o->save_evidence,
                     "Write the evidence file (JSON) that --evidence reads");
  verify->add_option("-j,--json", o->json, "Write the result as JSON to FILE, or - for stdout");
  verify->add_flag("--dry-run", o->dry_run, "Print the plan as JSON and verify nothing");

  return {sub, [o, witness, write, verify] {
            if (witness->parsed()) return RunPowercutWitness(*o);
            if (write->parsed()) return RunPowercutWrite(*o);
            if (verify->parsed()) return RunPowercutVerify(*o);
            return UsageError("powercut: say witness, write or verify");
          }};
}

int RunPowercutWitness(const PowercutCliOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<platform::Endpoint> listen = platform::ParseEndpoint(o.listen);
  if (!listen.ok()) return UsageError("--listen " + listen.status().message());
  Result<std::uint64_t> duration = DurationOf(o.duration);
  if (!duration.ok()) return UsageError("--for: " + duration.status().message());
  Result<std::uint64_t> idle = text::ParseDurationNanos(o.idle_timeout);
  if (!idle.ok() || *idle == 0) {
    return UsageError("--idle-timeout: " +
                      (idle.ok() ? std::string("must be more than 0") : idle.status().message()));
  }
  if (o.dry_run) {
    return PrintDryRun({{"command", "powercut witness"},
                        {"listen", listen->Text()},
                        {"log", o.log},
                        {"duration_ns", *duration},
                        {"idle_timeout_ns", *idle}});
  }
  run::WitnessOptions options;
  options.listen = *listen;
  options.log_path = o.log;
  options.duration_ns = *duration;
  options.idle_timeout_ns = *idle;
  Result<run::WitnessSummary> done =
      run::RunWitness(platform, options, [&](const run::WitnessSummary& s) {
        std::cerr << render::console::PowercutWitnessBanner(s.listening, o.log, s.runs_loaded,
                                                            s.acks_loaded, s.client_cap);
      });
  if (!done.ok()) return UsageError("powercut witness: " + done.status().message());
  std::cerr << render::console::PowercutWitnessStopped(done->acks_logged, done->syncs,
                                                       done->connections);
  return kExitOk;
}

int RunPowercutWrite(const PowercutCliOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = ResolveTargets(platform, {o.path});
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<platform::Endpoint> witness = platform::ParseEndpoint(o.witness);
  if (!witness.ok()) return UsageError("--witness " + witness.status().message());
  if (witness->port == 0) return UsageError("--witness " + o.witness + ": port 0 is no witness");
  run::PowercutWritePlan plan;
  plan.path = paths->front();
  plan.witness = *witness;
  plan.writer.primitive = probes::PrimitiveNames().at(o.primitive);
  if (Status s = probes::CheckWriterPrimitive(plan.writer.primitive); !s.ok()) {
    return UsageError(s.message());
  }
  Result<std::uint64_t> record = text::ParseSize(o.record_size);
  Result<std::uint64_t> file = text::ParseSize(o.file_size);
  Result<std::uint64_t> duration = DurationOf(o.duration);
  if (!record.ok()) return UsageError("--record-size: " + record.status().message());
  if (!file.ok()) return UsageError("--file-size: " + file.status().message());
  if (!duration.ok()) return UsageError("--for: " + duration.status().message());
  if (Status s = probes::CheckRecordSize(*record); !s.ok()) return UsageError(s.message());
  if (*file / *record > (std::uint64_t{1} << 26)) {
    return UsageError(fmt::format("--file-size {}: at most {} records of {} bytes", o.file_size,
                                  std::uint64_t{1} << 26, *record));
  }
  if (*file < *record) {
    return UsageError(
        fmt::format("--file-size {}: smaller than one record ({} bytes)", o.file_size, *record));
  }
  plan.writer.record_size = *record;
  plan.writer.file_bytes = *file / *record * *record;
  plan.writer.max_outstanding = o.max_outstanding;
  plan.writer.duration_ns = *duration;
  plan.append = o.mode == "append";
  if (o.mode == "sqlite") {
    plan.sqlite =
        sqlite_bench::PowercutSqliteConfig{sqlite_bench::JournalModeNames().at(o.journal_mode),
                                           sqlite_bench::SynchronousNames().at(o.synchronous)};
  }
  if (o.dry_run) {
    return PrintDryRun({{"command", "powercut write"},
                        {"path", plan.path},
                        {"witness", plan.witness.Text()},
                        {"mode", plan.sqlite ? sqlite_bench::PowercutSqliteMode(*plan.sqlite)
                                             : o.mode + ":" + o.primitive},
                        {"record_size", plan.writer.record_size},
                        {"file_size", plan.writer.file_bytes},
                        {"max_outstanding", plan.writer.max_outstanding},
                        {"duration_ns", plan.writer.duration_ns}});
  }
  std::string run_id;
  Result<probes::PowercutWriteResult> r =
      run::RunPowercutWrite(platform, plan, [&](const run::PowercutWriteStart& s) {
        run_id = s.run_id;
        std::cerr << render::console::PowercutWriteBanner(
            s.run_id, s.host, plan.path, s.directory, s.witness,
            plan.sqlite ? sqlite_bench::PowercutSqliteMode(*plan.sqlite) : o.primitive,
            plan.writer.record_size);
      });
  if (!r.ok()) return UsageError("powercut write: " + r.status().message());
  std::cerr << render::console::PowercutWriteStopped(*r, run_id);
  const bool failed = r->stop == probes::WriterStop::kWitnessGone ||
                      r->stop == probes::WriterStop::kWitnessSlow ||
                      r->stop == probes::WriterStop::kIoError;
  if (failed) {
    PrintError(fmt::format("powercut write: stopped: {}", r->reason));
    return kExitFail;
  }
  return kExitOk;
}

int RunPowercutVerify(const PowercutCliOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = ResolveTargets(platform, {o.path});
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<platform::Endpoint> witness = platform::ParseEndpoint(o.witness);
  if (!witness.ok()) return UsageError("--witness " + witness.status().message());
  if (!o.run_id.empty()) {
    if (Status s = probes::CheckRunId(o.run_id); !s.ok()) return UsageError(s.message());
  }
  for (const auto& [option, file] :
       {std::pair{"--save-evidence", o.save_evidence}, std::pair{"--json", o.json}}) {
    if (Status s = CheckFile(platform, option, file); !s.ok()) return UsageError(s.message());
  }
  Result<std::uint64_t> timeout = text::ParseDurationNanos(o.timeout);
  if (!timeout.ok() || *timeout == 0) {
    return UsageError("--timeout " + o.timeout + ": a duration above 0 (e.g. 30s, 5m)");
  }
  run::PowercutVerifyPlan plan;
  plan.path = paths->front();
  plan.witness = *witness;
  plan.run_id = o.run_id;
  plan.deadline_ns = *timeout;
  if (o.dry_run) {
    return PrintDryRun({{"command", "powercut verify"},
                        {"path", plan.path},
                        {"witness", plan.witness.Text()},
                        {"run_id", plan.run_id},
                        {"timeout_ns", plan.deadline_ns},
                        {"save_evidence", o.save_evidence},
                        {"json", o.json}});
  }
  Result<model::PowercutEvidence> e = run::RunPowercutVerify(platform, plan);
  if (!e.ok() && e.status().kind() == Status::Kind::kInterrupted) {
    PrintError(fmt::format("powercut verify: stopped by {}: nothing verified",
                           platform::SignalName(platform::InterruptSignal())));
    const int code = InterruptedExitCode();
    return code < 0 ? kExitUsage : code;
  }
  if (!e.ok()) return UsageError("powercut verify: " + e.status().message());
  const std::string doc = codec::PowercutEvidenceDocument(*e);
  if (o.json != "-") std::cout << render::console::PowercutVerifyText(*e);
  for (const auto& [option, file] :
       {std::pair{"--save-evidence", o.save_evidence}, std::pair{"--json", o.json}}) {
    if (Status s = WriteFile(platform, file, doc); !s.ok()) {
      return UsageError(fmt::format("{} {}: {}", option, file, s.message()));
    }
  }
  return e->verdict == "passed" ? kExitOk : kExitFail;
}

}  // namespace durprobe::cli
