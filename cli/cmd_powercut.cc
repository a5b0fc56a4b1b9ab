#include "cli/cmd_powercut.h"

#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/exit_status.h"
#include "cli/validators.h"
#include "output/output.h"
#include "platform/interrupt.h"
#include "probes/primitive_ops.h"
#include "render/console/powercut_console.h"
#include "run/powercut_plans.h"
#include "run/powercut_run.h"
#include "run/powercut_verify.h"
#include "run/powercut_witness.h"
#include "run/target_paths.h"
#include "sqlite_bench/commit_spec.h"
#include "sqlite_bench/powercut_sqlite.h"

namespace durprobe::cli {
namespace {

int PrintDryRun(const nlohmann::json& plan) {
  std::cout << plan.dump(2) << "\n";
  return kExitOk;
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
  Result<run::WitnessOptions> options = run::MakeWitnessOptions(
      {.listen = o.listen, .log = o.log, .duration = o.duration, .idle_timeout = o.idle_timeout});
  if (!options.ok()) return UsageError(options.status().message());
  if (o.dry_run) return PrintDryRun(run::WitnessDryRun(*options));
  Result<run::WitnessSummary> done =
      run::RunWitness(platform, *options, [&](const run::WitnessSummary& s) {
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
  Result<std::vector<std::string>> paths = run::ResolveTargets(platform, {o.path});
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<run::PowercutWritePlan> plan =
      run::MakePowercutWritePlan(paths->front(), {.witness = o.witness,
                                                  .mode = o.mode,
                                                  .primitive = o.primitive,
                                                  .journal_mode = o.journal_mode,
                                                  .synchronous = o.synchronous,
                                                  .record_size = o.record_size,
                                                  .file_size = o.file_size,
                                                  .max_outstanding = o.max_outstanding,
                                                  .duration = o.duration});
  if (!plan.ok()) return UsageError(plan.status().message());
  if (o.dry_run) return PrintDryRun(run::PowercutWriteDryRun(*plan));
  std::string run_id;
  Result<probes::PowercutWriteResult> r =
      run::RunPowercutWrite(platform, *plan, [&](const run::PowercutWriteStart& s) {
        run_id = s.run_id;
        std::cerr << render::console::PowercutWriteBanner(
            s.run_id, s.host, plan->path, s.directory, s.witness,
            plan->sqlite ? sqlite_bench::PowercutSqliteMode(*plan->sqlite) : o.primitive,
            plan->writer.record_size);
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
  Result<std::vector<std::string>> paths = run::ResolveTargets(platform, {o.path});
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<run::PowercutVerifyPlan> plan = run::MakePowercutVerifyPlan(
      paths->front(), {.witness = o.witness, .run_id = o.run_id, .timeout = o.timeout});
  if (!plan.ok()) return UsageError(plan.status().message());
  // The evidence goes to --save-evidence and --json as JSON, through the emit path every
  // report takes (checked now, each file written atomically), and to the console unless --json
  // takes stdout.
  std::vector<output::Destination> outputs;
  if (!o.save_evidence.empty()) {
    outputs.push_back({output::Format::kJson, o.save_evidence, "--save-evidence"});
  }
  if (!o.json.empty()) outputs.push_back({output::Format::kJson, o.json});
  if (Status st = output::CheckDestinations(platform, outputs); !st.ok()) {
    return UsageError(st.message());
  }
  if (!output::UsesStdout(outputs)) outputs.push_back({output::Format::kConsole, "-"});
  if (o.dry_run) return PrintDryRun(run::PowercutVerifyDryRun(*plan, o.save_evidence, o.json));
  Result<model::PowercutEvidence> e = run::RunPowercutVerify(platform, *plan);
  if (!e.ok() && e.status().kind() == Status::Kind::kInterrupted) {
    PrintError(fmt::format("powercut verify: stopped by {}: nothing verified",
                           platform::SignalName(platform::InterruptSignal())));
    const int code = InterruptedExitCode();
    return code < 0 ? kExitUsage : code;
  }
  if (!e.ok()) return UsageError("powercut verify: " + e.status().message());
  if (Status st = output::WriteDestinations(platform, outputs, *e, std::cout); !st.ok()) {
    return UsageError(st.message());
  }
  return e->verdict == model::PowercutVerdict::kPassed ? kExitOk : kExitFail;
}

}  // namespace durprobe::cli
