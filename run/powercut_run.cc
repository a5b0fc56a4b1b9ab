#include "run/powercut_run.h"

#include <fmt/format.h>

#include <array>
#include <vector>

#include "platform/boot_id.h"
#include "platform/owned_files.h"
#include "probes/powercut_append.h"
#include "probes/powercut_protocol.h"
#include "probes/powercut_record.h"
#include "probes/primitive_ops.h"
#include "run/powercut_files.h"
#include "run/powercut_wire.h"

namespace durprobe::run {
namespace {

using probes::Message;
using probes::MessageKind;

std::string NewRunId() {
  std::array<std::uint8_t, 8> bytes{};
  platform::RandomBytes(bytes);
  std::string id;
  for (std::uint8_t b : bytes) id += fmt::format("{:02x}", b);
  return id;
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

std::string ModeWord(const PowercutWritePlan& plan) {
  if (plan.sqlite) return sqlite_bench::PowercutSqliteMode(*plan.sqlite);
  return fmt::format("{}:{}", plan.append ? probes::kAppendModeWord : "file",
                     probes::OpsOf(plan.writer.primitive).name);
}

// The run's directory, made 0700 under PATH with its secret and boot id (each 0600, synced, the
// directory too) before the witness hears of the run; removed again when the witness refuses it.
struct RunDirectory {
  platform::FileHandle path;
  platform::FileHandle dir;
  std::string name;
  std::string where;  // a path that names the open directory (DescriptorPath)
};

Result<RunDirectory> MakeRunDirectory(platform::Platform& platform, const std::string& path,
                                      const std::string& name, const std::string& secret) {
  RunDirectory r;
  r.name = name;
  Result<platform::OwnedHandle> top =
      platform::OpenOwnedAt(platform, platform::kNoDirectory, path, true);
  if (!top.ok()) return top.status();
  r.path = std::move(top->handle);
  if (Status s = platform::MakeOwnDirectoryAt(r.path.get(), name); !s.ok()) return s;
  Result<platform::OwnedHandle> dir = platform::OpenOwnedAt(platform, r.path.get(), name, true);
  if (!dir.ok()) return dir.status();
  if (dir->entry.uid != platform.EffectiveUserId()) {
    return Status::Error(fmt::format("{}/{}: not the directory just made", path, name));
  }
  r.dir = std::move(dir->handle);
  Result<std::string> work = platform.DescriptorPath(r.dir.get());
  if (!work.ok()) return work.status();
  r.where = *work;
  Result<std::string> boot = platform::ReadBootId(platform);
  if (Status s =
          platform::WritePrivateFileAt(platform, r.dir.get(), kPowercutSecretFile, secret + "\n");
      !s.ok()) {
    return s;
  }
  if (Status s = platform::WritePrivateFileAt(platform, r.dir.get(), kPowercutBootIdFile,
                                              boot.ok() ? *boot : std::string());
      !s.ok()) {
    return s;
  }
  if (Status s = platform.SyncDirectory(r.where); !s.ok()) return s;
  if (Status s = platform.SyncDirectory(path); !s.ok()) return s;
  return r;
}

void RemoveRunDirectory(platform::Platform& platform, RunDirectory& r) {
  if (Result<std::vector<std::string>> names = platform.ListDirectoryAt(r.dir.get()); names.ok()) {
    for (const std::string& n : *names) (void)platform.UnlinkAt(r.dir.get(), n, false);
  }
  (void)platform.UnlinkAt(r.path.get(), r.name, true);
}

// HELLO and its WELCOME; an Error saying what the witness did otherwise.
Status Hello(platform::Platform& platform, int socket, const Message& hello,
             const std::string& witness, std::uint64_t timeout_ns) {
  if (Status s = platform::TcpSend(socket, probes::FormatMessage(hello)); !s.ok()) {
    return Status::Error(fmt::format("witness {}: {}", witness, s.message()));
  }
  return ReadWitnessLines(
      platform, socket, timeout_ns, witness, [&](const std::string& line) -> Result<bool> {
        Result<Message> m = probes::ParseMessage(line);
        if (m.ok() && m->kind == MessageKind::kWelcome) return true;
        return Status::Error(
            fmt::format("the witness {} answered '{}'", witness, line.substr(0, 60)));
      });
}

}  // namespace

Result<probes::PowercutWriteResult> RunPowercutWrite(
    platform::Platform& platform, const PowercutWritePlan& plan,
    const std::function<void(const PowercutWriteStart&)>& on_start) {
  PowercutWriteStart start;
  start.run_id = plan.run_id.empty() ? NewRunId() : plan.run_id;
  start.host = HostWord(platform);
  start.witness = plan.witness.Text();
  const std::string name = std::string(kPowercutDirPrefix) + start.run_id;
  start.directory = plan.path + "/" + name;
  // The witness first: nothing is written without one to tell.
  Result<platform::FileHandle> socket =
      ConnectWitness(platform, plan.witness, plan.connect_timeout_ns);
  if (!socket.ok()) return Status::Error(socket.status().message() + "; nothing was written");
  // The secret is on the disk, synced, before the witness ties the run to it.
  const std::string secret = NewPowercutSecret();
  Result<RunDirectory> run = MakeRunDirectory(platform, plan.path, name, secret);
  if (!run.ok()) return run.status();
  Message hello;
  hello.kind = MessageKind::kHello;
  hello.host = start.host;
  hello.run_id = start.run_id;
  hello.mode = ModeWord(plan);
  hello.record_size = plan.writer.record_size;
  hello.slots = plan.writer.file_bytes / plan.writer.record_size;
  hello.secret = secret;
  if (Status s = Hello(platform, socket->get(), hello, start.witness, plan.connect_timeout_ns);
      !s.ok()) {
    RemoveRunDirectory(platform, *run);
    return Status::Error(s.message() + "; nothing was written");
  }
  const int dir = run->dir.get();
  const std::string& where = run->where;
  // The identity verify checks: the directory and the file the records go in (device, inode).
  auto record_identity = [&](std::vector<std::string> files) -> Status {
    if (Status s = RecordIdentity(platform, dir, start.run_id, files); !s.ok()) return s;
    return platform.SyncDirectory(where);
  };
  if (plan.sqlite) {
    on_start(start);
    return sqlite_bench::WriteSqliteRecords(
        platform, where, socket->get(), start.run_id, plan.writer, *plan.sqlite,
        [&] { return record_identity({sqlite_bench::kPowercutDbName}); });
  }
  if (plan.append) {
    if (Status s = record_identity({}); !s.ok()) return s;
    on_start(start);
    return probes::AppendRecords(platform, dir, where, socket->get(), start.run_id, plan.writer);
  }
  Result<platform::FileHandle> file =
      probes::PreallocateRecords(platform, where, kPowercutRecordsFile, plan.writer);
  if (!file.ok()) return file.status();
  if (Status s = record_identity({kPowercutRecordsFile}); !s.ok()) return s;
  on_start(start);
  return probes::WriteRecords(platform, file->get(), socket->get(), start.run_id, plan.writer);
}

}  // namespace durprobe::run
