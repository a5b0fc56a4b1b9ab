#include "run/powercut_verify.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "analysis/powercut_verdict.h"
#include "platform/boot_id.h"
#include "platform/inspect.h"
#include "probes/powercut_append.h"
#include "probes/powercut_protocol.h"
#include "probes/powercut_reader.h"
#include "probes/powercut_record.h"
#include "run/powercut.h"
#include "run/powercut_files.h"
#include "run/powercut_wire.h"
#include "sqlite_bench/powercut_sqlite_copy.h"

namespace durprobe::run {
namespace {

using probes::Message;
using probes::MessageKind;

// The run id under path: the only .durprobe-powercut-* directory there.
Result<std::string> FindRunId(platform::Platform& platform, const std::string& path) {
  Result<platform::OwnedHandle> top =
      platform::OpenOwnedAt(platform, platform::kNoDirectory, path, true);
  if (!top.ok())
    return Status::InvalidArgument(fmt::format("{}: {}", path, top.status().message()));
  Result<std::vector<std::string>> names = platform.ListDirectoryAt(top->handle.get());
  if (!names.ok()) return names.status();
  std::vector<std::string> runs;
  for (const std::string& n : *names) {
    if (n.starts_with(kPowercutDirPrefix)) runs.push_back(n.substr(kPowercutDirPrefix.size()));
  }
  if (runs.empty()) {
    return Status::InvalidArgument(
        fmt::format("{}: no power-cut records here (durprobe powercut write makes them)", path));
  }
  if (runs.size() > 1) {
    return Status::InvalidArgument(
        fmt::format("{}: records of {} runs here ({}): say which with --run-id", path, runs.size(),
                    fmt::join(runs, ", ")));
  }
  return runs.front();
}

// GET run_id with its secret: the run the witness holds, within the plan's deadline.
Result<probes::WitnessRun> AskWitness(platform::Platform& platform, const PowercutVerifyPlan& plan,
                                      const std::string& run_id, const std::string& secret,
                                      std::uint64_t deadline) {
  const std::string witness = plan.witness.Text();
  Result<platform::FileHandle> socket = ConnectWitness(platform, plan.witness, plan.timeout_ns);
  if (!socket.ok()) return socket.status();
  Message get;
  get.kind = MessageKind::kGet;
  get.run_id = run_id;
  get.secret = secret;
  if (Status s = platform::TcpSend(socket->get(), probes::FormatMessage(get)); !s.ok()) return s;
  probes::WitnessRun run;
  bool unknown = false;
  std::uint64_t announced = 0;
  Status read = ReadWitnessLines(
      platform, socket->get(), plan.timeout_ns, witness,
      [&](const std::string& line) -> Result<bool> {
        Result<Message> m = probes::ParseMessage(line);
        if (!m.ok()) return m.status();
        switch (m->kind) {
          case MessageKind::kUnknown:
            unknown = true;
            return true;
          case MessageKind::kRun:
            run.run_id = m->run_id;
            run.host = m->host;
            run.mode = m->mode;
            run.slots = m->slots;
            run.record_size = m->record_size;
            announced = m->count;
            return false;
          case MessageKind::kAcked:
            // No more than the RUN line announced: a flood is refused.
            if (run.acks.size() >= announced) {
              return Status::Error(fmt::format(
                  "the witness {} sent more acks than the {} it announced", witness, announced));
            }
            run.acks.push_back({m->sequence, m->checksum});
            return false;
          case MessageKind::kEnd:
            return true;
          default:
            return Status::Error(
                fmt::format("the witness {} answered '{}'", witness, line.substr(0, 60)));
        }
      },
      deadline);
  if (!read.ok()) return read;
  if (unknown) {
    return Status::InvalidArgument(
        fmt::format("the witness {} knows no run {} with this run's secret", witness, run_id));
  }
  if (run.run_id != run_id) {
    return Status::Error(fmt::format("the witness {} answered for run '{}', not {}", witness,
                                     run.run_id.substr(0, 32), run_id));
  }
  if (run.acks.empty()) {
    return Status::InvalidArgument(
        fmt::format("the witness {} holds no acknowledged record of run {}: nothing to verify",
                    witness, run_id));
  }
  if (Status s = probes::CheckRecordSize(run.record_size); !s.ok() || run.slots == 0) {
    return Status::Error(
        fmt::format("the witness {} says run {} has records of {} bytes in {} "
                    "slots",
                    witness, run_id, run.record_size, run.slots));
  }
  return run;
}

struct ReadBack {
  probes::PowercutTally tally;
  std::string integrity;
  bool file_missing = false;
};

Result<ReadBack> ReadRecords(platform::Platform& platform, PowercutRunFiles& files,
                             const probes::WitnessRun& run, const std::string& kind) {
  ReadBack out;
  if (kind == probes::kAppendModeWord) {
    Result<probes::AppendReadBack> back = probes::ReadBackAppended(
        platform, run, [&](std::uint64_t round) -> Result<platform::OwnedHandle> {
          return files.OpenFile(probes::AppendRoundName(round));
        });
    if (!back.ok()) return back.status();
    out.tally = back->tally;
    out.file_missing = back->rounds_missing > 0;
    return out;
  }
  const bool sqlite = kind == "sqlite";
  // The run's directory is here, so the writer was: a file it made that is not in it now is one
  // whose creation the device lost, with every record acknowledged in it.
  Result<platform::OwnedHandle> file =
      files.OpenFile(sqlite ? sqlite_bench::kPowercutDbName : kPowercutRecordsFile);
  if (!file.ok()) return file.status();
  if (!file->handle.valid()) {
    out.file_missing = true;
    out.tally = probes::AllMissing(run);
    if (sqlite) out.integrity = "no database: the file is not on the disk";
    return out;
  }
  if (sqlite) {
    Result<sqlite_bench::SqliteReadBack> back = sqlite_bench::ReadBackSqliteCopy(
        platform, std::move(*file), run, [&](const std::string& n) { return files.OpenFile(n); });
    if (!back.ok()) return back.status();
    out.tally = back->tally;
    out.integrity = back->integrity;
    return out;
  }
  Result<probes::PowercutTally> tally = probes::ReadBackRecords(platform, file->handle.get(), run);
  if (!tally.ok()) return tally.status();
  out.tally = *tally;
  return out;
}

}  // namespace

Result<model::PowercutEvidence> RunPowercutVerify(platform::Platform& platform,
                                                  const PowercutVerifyPlan& plan) {
  const std::uint64_t deadline = platform.NowNanos() + plan.deadline_ns;
  Result<std::string> booted = platform::ReadBootId(platform);
  std::string run_id = plan.run_id;
  if (run_id.empty()) {
    Result<std::string> found = FindRunId(platform, plan.path);
    if (!found.ok()) return found.status();
    run_id = *found;
  }
  if (Status s = probes::CheckRunId(run_id); !s.ok()) return s;
  // The run's files first, checked: its secret is what the witness asks for.
  bool missing = false;
  Result<PowercutRunFiles> files = PowercutRunFiles::Open(platform, plan.path, run_id, &missing);
  if (!files.ok() && missing) {
    return Status::InvalidArgument(fmt::format(
        "{}: no records of run {} here; if this is the path it wrote to, the device lost the "
        "run's directory, and every acknowledged record with it",
        plan.path, run_id));
  }
  if (!files.ok()) return files.status();
  Result<std::string> secret = files->Secret();
  if (!secret.ok()) return secret.status();
  Result<probes::WitnessRun> run = AskWitness(platform, plan, run_id, *secret, deadline);
  if (!run.ok()) return run.status();
  const std::size_t colon = run->mode.find(':');
  const std::string kind = run->mode.substr(0, colon);
  Result<ReadBack> back = ReadRecords(platform, *files, *run, kind);
  if (!back.ok()) return back.status();
  bool no_boot_id = false;
  Result<std::string> writer_boot = files->ReadText(kPowercutBootIdFile, 128, &no_boot_id);
  if (!writer_boot.ok()) return writer_boot.status();

  model::PowercutEvidence e;
  e.run_id = run_id;
  e.host = run->host;
  e.witness = plan.witness.Text();
  e.date = platform.WallClockIso8601();
  e.path = plan.path;
  e.writer_boot_id = *writer_boot;
  if (booted.ok()) e.verify_boot_id = *booted;
  e.mode = kind;
  const std::string rest = colon == std::string::npos ? "" : run->mode.substr(colon + 1);
  if (e.mode == "sqlite") {
    const std::size_t second = rest.find(':');
    e.journal_mode = rest.substr(0, second);
    if (second != std::string::npos) e.synchronous = rest.substr(second + 1);
    e.integrity_check = back->integrity;
  } else {
    e.primitive = rest;
  }
  const probes::PowercutTally& t = back->tally;
  e.record_size = run->record_size;
  e.acknowledged = t.acknowledged;
  e.overwritten = t.overwritten;
  e.present = t.present;
  e.missing = t.missing;
  e.torn = t.torn;
  e.in_flight = t.in_flight;
  e.lost = t.lost;
  e.file_missing = back->file_missing;
  Result<platform::MountInfo> mount = platform::InspectPath(platform, plan.path);
  if (mount.ok()) {
    e.fstype = mount->fstype;
    e.mount_options = mount->options;
    if (mount->device) {
      e.device = mount->device->name;
      e.disk = mount->device->disk;
      e.device_model = mount->device->model;
      e.device_serial = mount->device->serial;
    }
  }
  e.verdict = analysis::PowercutVerdictOf(e);
  return e;
}

}  // namespace durprobe::run
