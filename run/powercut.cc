#include "run/powercut.h"

#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <vector>

#include "analysis/powercut_verdict.h"
#include "platform/boot_id.h"
#include "platform/inspect.h"
#include "probes/powercut_protocol.h"
#include "probes/powercut_reader.h"
#include "probes/powercut_record.h"
#include "probes/primitive_ops.h"

namespace durprobe::run {
namespace {

using probes::Message;
using probes::MessageKind;

std::string NewRunId() {
  std::random_device rd;
  const std::uint64_t id = (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
  return fmt::format("{:016x}", id);
}

// The host name as one protocol word.
std::string HostWord(platform::Platform& platform) {
  std::string host = platform.System().host;
  for (char& c : host) {
    if (!probes::IsWord(std::string(1, c))) c = '-';
  }
  if (host.size() > 64) host.resize(64);
  return host.empty() ? "unknown" : host;
}

// Reads lines from the socket until done says the exchange is complete; an Error when the peer
// closes first or sends nothing for timeout_ns.
Status ReadLines(platform::Platform& platform, int socket, std::uint64_t timeout_ns,
                 const std::string& witness,
                 const std::function<Result<bool>(const std::string&)>& line_done) {
  probes::LineBuffer lines;
  std::uint64_t until = platform.NowNanos() + timeout_ns;
  for (;;) {
    while (std::optional<std::string> line = lines.Next()) {
      Result<bool> done = line_done(*line);
      if (!done.ok()) return done.status();
      if (*done) return Status::Ok();
    }
    const std::uint64_t now = platform.NowNanos();
    if (now >= until) {
      return Status::Error(fmt::format("the witness {} did not answer within {} s", witness,
                                       timeout_ns / 1000000000));
    }
    const int fds[] = {socket};
    Result<std::vector<std::size_t>> ready = platform::WaitReadable(fds, until - now);
    if (!ready.ok()) return ready.status();
    if (ready->empty()) continue;
    char buf[1 << 16];
    Result<std::size_t> got = platform::TcpReceive(socket, buf, sizeof buf);
    if (!got.ok()) return got.status();
    if (*got == 0) {
      return Status::Error(fmt::format("the witness {} closed the connection", witness));
    }
    lines.Append(std::string_view(buf, *got));
    until = platform.NowNanos() + timeout_ns;  // a long answer is fine while it keeps coming
  }
}

Result<platform::FileHandle> ConnectWitness(platform::Platform& platform,
                                            const platform::Endpoint& e, std::uint64_t timeout_ns) {
  Result<platform::FileHandle> socket = platform::TcpConnect(platform, e, timeout_ns);
  if (!socket.ok()) {
    return Status::Error(
        fmt::format("witness {} unreachable: {}", e.Text(), socket.status().message()));
  }
  return socket;
}

// The run id under path: the only .durprobe-powercut-* directory there.
Result<std::string> FindRunId(platform::Platform& platform, const std::string& path) {
  Result<std::vector<std::string>> names = platform.ListDirectory(path);
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

// Writes the boot id beside the records and syncs it and its directory entry, so the verify after
// the cut can tell a reboot from none. A machine without a boot id keeps an empty file.
Status KeepBootId(platform::Platform& platform, const std::string& where) {
  Result<std::string> id = platform::ReadBootId(platform);
  const std::string text = id.ok() ? *id : std::string();
  const std::string path = where + "/" + kPowercutBootIdFile;
  Result<platform::FileHandle> f =
      platform.Open(path, platform::OpenFlags{.create = true, .exclusive = true});
  if (!f.ok()) return f.status();
  if (Status s = platform.PWrite(f->get(), text.data(), text.size(), 0); !s.ok()) return s;
  if (Status s = platform.Sync(f->get(), platform::SyncCall::kFsync); !s.ok()) return s;
  return platform.SyncDirectory(where);
}

// The boot id the writer kept in the run's directory, or "" when there is none.
std::string KeptBootId(platform::Platform& platform, int dir_fd) {
  Result<platform::FileHandle> f = platform.OpenFileAt(dir_fd, kPowercutBootIdFile);
  if (!f.ok()) return "";
  std::string text(128, '\0');
  Result<std::size_t> n = platform.PRead(f->get(), text.data(), text.size(), 0);
  if (!n.ok()) return "";
  text.resize(*n);
  return text;
}

}  // namespace

Result<probes::PowercutWriteResult> RunPowercutWrite(
    platform::Platform& platform, const PowercutWritePlan& plan,
    const std::function<void(const PowercutWriteStart&)>& on_start) {
  PowercutWriteStart start;
  start.run_id = plan.run_id.empty() ? NewRunId() : plan.run_id;
  start.host = HostWord(platform);
  start.witness = plan.witness.Text();
  start.directory = plan.path + "/" + std::string(kPowercutDirPrefix) + start.run_id;
  // The witness first: nothing is written without one to tell.
  Result<platform::FileHandle> socket =
      ConnectWitness(platform, plan.witness, plan.connect_timeout_ns);
  if (!socket.ok()) return Status::Error(socket.status().message() + "; nothing was written");
  Message hello;
  hello.kind = MessageKind::kHello;
  hello.host = start.host;
  hello.run_id = start.run_id;
  hello.mode = plan.sqlite ? sqlite_bench::PowercutSqliteMode(*plan.sqlite)
                           : fmt::format("file:{}", probes::OpsOf(plan.writer.primitive).name);
  hello.record_size = plan.writer.record_size;
  hello.slots = plan.writer.file_bytes / plan.writer.record_size;
  if (Status s = platform::TcpSend(socket->get(), probes::FormatMessage(hello)); !s.ok()) {
    return Status::Error(
        fmt::format("witness {}: {}; nothing was written", start.witness, s.message()));
  }
  Status welcomed =
      ReadLines(platform, socket->get(), plan.connect_timeout_ns, start.witness,
                [&](const std::string& line) -> Result<bool> {
                  Result<Message> m = probes::ParseMessage(line);
                  if (m.ok() && m->kind == MessageKind::kWelcome) return true;
                  return Status::Error(fmt::format("the witness {} answered '{}'", start.witness,
                                                   line.substr(0, 60)));
                });
  if (!welcomed.ok()) return Status::Error(welcomed.message() + "; nothing was written");
  if (Status s = platform.MakeDirectory(start.directory); !s.ok()) return s;
  Result<platform::FileHandle> dir =
      platform.OpenDirectoryAt(platform::kNoDirectory, start.directory, false);
  if (!dir.ok()) return dir.status();
  Result<std::string> work = platform.DescriptorPath(dir->get());
  const std::string where = work.ok() ? *work : start.directory;
  if (Status s = KeepBootId(platform, where); !s.ok()) return s;
  if (plan.sqlite) {
    if (Status s = platform.SyncDirectory(plan.path); !s.ok()) return s;
    on_start(start);
    return sqlite_bench::WriteSqliteRecords(platform, where, socket->get(), start.run_id,
                                            plan.writer, *plan.sqlite);
  }
  Result<platform::FileHandle> file =
      probes::PreallocateRecords(platform, where, kPowercutRecordsFile, plan.writer);
  if (!file.ok()) return file.status();
  if (Status s = platform.SyncDirectory(plan.path); !s.ok()) return s;
  on_start(start);
  return probes::WriteRecords(platform, file->get(), socket->get(), start.run_id, plan.writer);
}

Result<report::PowercutEvidence> RunPowercutVerify(platform::Platform& platform,
                                                   const PowercutVerifyPlan& plan) {
  Result<std::string> booted = platform::ReadBootId(platform);
  std::string run_id = plan.run_id;
  if (run_id.empty()) {
    Result<std::string> found = FindRunId(platform, plan.path);
    if (!found.ok()) return found.status();
    run_id = *found;
  }
  if (Status s = probes::CheckRunId(run_id); !s.ok()) return s;
  const std::string witness = plan.witness.Text();
  Result<platform::FileHandle> socket = ConnectWitness(platform, plan.witness, plan.timeout_ns);
  if (!socket.ok()) return socket.status();
  Message get;
  get.kind = MessageKind::kGet;
  get.run_id = run_id;
  if (Status s = platform::TcpSend(socket->get(), probes::FormatMessage(get)); !s.ok()) return s;
  probes::WitnessRun run;
  bool unknown = false;
  Status read = ReadLines(platform, socket->get(), plan.timeout_ns, witness,
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
                                return false;
                              case MessageKind::kAcked:
                                run.acks.push_back({m->sequence, m->checksum});
                                return false;
                              case MessageKind::kEnd:
                                return true;
                              default:
                                return Status::Error(fmt::format("the witness {} answered '{}'",
                                                                 witness, line.substr(0, 60)));
                            }
                          });
  if (!read.ok()) return read;
  if (unknown) {
    return Status::InvalidArgument(fmt::format("the witness {} knows no run {}", witness, run_id));
  }
  if (run.acks.empty()) {
    return Status::InvalidArgument(
        fmt::format("the witness {} holds no acknowledged record of run {}: nothing to verify",
                    witness, run_id));
  }
  if (Status s = probes::CheckRecordSize(run.record_size); !s.ok()) {
    return Status::Error(fmt::format("the witness {} says run {} has records of {} bytes", witness,
                                     run_id, run.record_size));
  }
  const std::string directory = plan.path + "/" + std::string(kPowercutDirPrefix) + run_id;
  Result<platform::FileHandle> dir =
      platform.OpenDirectoryAt(platform::kNoDirectory, directory, false);
  if (!dir.ok()) {
    return Status::InvalidArgument(fmt::format(
        "{}: no records of run {} here ({}); if this is the path it wrote to, the device lost the "
        "run's directory, and all {} acknowledged records with it",
        plan.path, run_id, dir.status().message(), run.acks.size()));
  }
  Result<probes::PowercutTally> tally = Status::Error("no records read");
  std::string integrity;
  const bool sqlite = run.mode.starts_with("sqlite:");
  // The run's directory is here, so the writer was: a file it made that is not in it now is one
  // whose creation the device lost, with every record acknowledged in it.
  const std::string file_name = sqlite ? sqlite_bench::kPowercutDbName : kPowercutRecordsFile;
  Result<std::vector<std::string>> names = platform.ListDirectoryAt(dir->get());
  if (!names.ok()) return names.status();
  const bool file_missing = std::find(names->begin(), names->end(), file_name) == names->end();
  if (file_missing) {
    tally = probes::AllMissing(run);
    if (sqlite) integrity = "no database: the file is not on the disk";
  } else if (sqlite) {
    Result<std::string> work = platform.DescriptorPath(dir->get());
    Result<sqlite_bench::SqliteReadBack> back =
        sqlite_bench::ReadBackSqliteRecords(work.ok() ? *work : directory, run);
    if (!back.ok()) return back.status();
    tally = back->tally;
    integrity = back->integrity;
  } else {
    Result<platform::FileHandle> file = platform.OpenFileAt(dir->get(), kPowercutRecordsFile);
    if (!file.ok()) {
      return Status::InvalidArgument(
          fmt::format("{}/{}: {}", directory, kPowercutRecordsFile, file.status().message()));
    }
    tally = probes::ReadBackRecords(platform, file->get(), run);
    if (!tally.ok()) return tally.status();
  }

  report::PowercutEvidence e;
  e.run_id = run_id;
  e.host = run.host;
  e.witness = witness;
  e.date = platform.WallClockIso8601();
  e.path = plan.path;
  e.writer_boot_id = KeptBootId(platform, dir->get());
  if (booted.ok()) e.verify_boot_id = *booted;
  const std::size_t colon = run.mode.find(':');
  e.mode = run.mode.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : run.mode.substr(colon + 1);
  if (e.mode == "sqlite") {
    const std::size_t second = rest.find(':');
    e.journal_mode = rest.substr(0, second);
    if (second != std::string::npos) e.synchronous = rest.substr(second + 1);
    e.integrity_check = integrity;
  } else {
    e.primitive = rest;
  }
  e.record_size = run.record_size;
  e.acknowledged = tally->acknowledged;
  e.overwritten = tally->overwritten;
  e.present = tally->present;
  e.missing = tally->missing;
  e.torn = tally->torn;
  e.lost = tally->lost;
  e.file_missing = file_missing;
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
  e.verdict = report::PowercutVerdictOf(e);
  return e;
}

}  // namespace durprobe::run
