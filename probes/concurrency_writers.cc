#include "probes/concurrency_writers.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <type_traits>

#include "platform/aligned_buffer.h"
#include "platform/child_process.h"
#include "platform/interrupt.h"
#include "probes/primitive_ops.h"

namespace durprobe::probes {
namespace {

using platform::FileHandle;
using platform::Platform;

std::string WriterDir(const std::string& dir, std::uint32_t index) {
  return fmt::format("{}/w{}", dir, index);
}

// Writer `index` of a shared file: overwrites its own region in place, the primitive's way.
class SharedWriterOp final : public ProbeOp {
 public:
  SharedWriterOp(Platform& p, int fd, ProbeSpec spec, std::uint64_t region_start,
                 std::uint64_t region_size)
      : p_(p),
        fd_(fd),
        spec_(spec),
        start_(region_start),
        size_(region_size),
        buffer_(spec.write_size, 4096) {}

  Status Setup() override {
    if (buffer_.data() == nullptr) return Status::Error("could not allocate the write buffer");
    FillPattern(buffer_.data(), buffer_.size());
    const PrimitiveOps& ops = OpsOf(spec_.primitive);
    if (ops.open.direct && spec_.write_size % 512 != 0) {
      return Status::Unsupported(
          fmt::format("O_DIRECT needs a write size that is a multiple of the block size; {} is not",
                      spec_.write_size));
    }
    if (ops.write == WritePath::kRingLinked) {
      Result<std::unique_ptr<platform::IoRing>> ring = p_.MakeRing(4);
      if (!ring.ok()) return ring.status();
      ring_ = std::move(*ring);
    }
    return Status::Ok();
  }

  Status RunOnce(OpTiming* t) override {
    if (offset_ + spec_.write_size > size_) offset_ = 0;
    Status s = WriteDurably(p_, ring_.get(), fd_, spec_, buffer_.data(), start_ + offset_, t);
    offset_ += spec_.write_size;
    return s;
  }

  bool has_sync_part() const override { return OpsOf(spec_.primitive).sync.has_value(); }
  Status Teardown() override { return Status::Ok(); }  // the SharedFile goes with the run

 private:
  Platform& p_;
  int fd_;
  ProbeSpec spec_;
  std::uint64_t start_, size_;
  platform::AlignedBuffer buffer_;
  std::unique_ptr<platform::IoRing> ring_;
  std::uint64_t offset_ = 0;
};

// One writer's loop outcome as a child process sends it: a trivially copyable head, the
// histogram's bytes (Histogram::ToBytes), then the status text.
struct WireOutcome {
  std::uint64_t ops = 0, warmup_ops = 0, elapsed_ns = 0;
  Status::Kind kind = Status::Kind::kOk;
  int pid = 0;
};
static_assert(std::is_trivially_copyable_v<WireOutcome>);

std::string Encode(const LoopOutcome& out, int pid) {
  WireOutcome w{out.ops, out.warmup_ops, out.elapsed_ns, out.status.kind(), pid};
  std::string frame(sizeof w, '\0');
  std::memcpy(frame.data(), &w, sizeof w);
  return frame + out.total.ToBytes() + out.status.message();
}

Status StatusFrom(Status::Kind kind, const std::string& message) {
  switch (kind) {
    case Status::Kind::kOk:
      return Status::Ok();
    case Status::Kind::kUnsupported:
      return Status::Unsupported(message);
    case Status::Kind::kInterrupted: {
      int sig = platform::InterruptSignal();
      return Status::Interrupted(sig == 0 ? 2 : sig);
    }
    case Status::Kind::kInvalidArgument:
      return Status::InvalidArgument(message);
    case Status::Kind::kError:
      break;
  }
  return Status::Error(message);
}

Result<LoopOutcome> Decode(const std::string& frame, int* pid) {
  WireOutcome w;
  if (frame.size() < sizeof w + Histogram::kBytes) {
    return Status::Error("a writer process sent a short result");
  }
  std::memcpy(&w, frame.data(), sizeof w);
  LoopOutcome out;
  (void)Histogram::FromBytes(std::string_view(frame).substr(sizeof w, Histogram::kBytes),
                             &out.total);
  out.ops = w.ops;
  out.warmup_ops = w.warmup_ops;
  out.elapsed_ns = w.elapsed_ns;
  out.status = StatusFrom(w.kind, frame.substr(sizeof w + Histogram::kBytes));
  *pid = w.pid;
  return out;
}

// A writer process: sets up, says ready (an empty frame, or its failure), waits for the start
// byte, runs its loop and sends the outcome.
int WriterProcess(Platform& platform, platform::ChildChannel& channel, const std::string& dir,
                  const ConcurrencySpec& spec, std::uint32_t index, const StopRule& rule,
                  std::uint64_t file_size) {
  Result<std::unique_ptr<ProbeOp>> op =
      MakeWriterOp(platform, dir, spec, index, file_size, nullptr);
  LoopOutcome out;
  out.status = op.ok() ? (*op)->Setup() : op.status();
  if (!channel.SendFrame(out.status.ok() ? "" : "setup failed").ok()) return 1;
  if (out.status.ok()) {
    if (!channel.Receive().ok()) out.status = Status::Error("the parent went away");
    if (out.status.ok()) out = RunTimedLoop(platform, **op, rule);
  }
  if (op.ok()) {
    Status down = (*op)->Teardown();
    if (out.status.ok()) out.status = down;
  }
  return channel.SendFrame(Encode(out, platform.ProcessId())).ok() ? 0 : 1;
}

}  // namespace

Result<std::unique_ptr<SharedFile>> SharedFile::Create(Platform& platform, const std::string& dir,
                                                       Primitive primitive, std::uint64_t size) {
  std::unique_ptr<SharedFile> file(new SharedFile(platform, dir + "/shared.dat"));
  Status s = Preallocate(platform, file->path_, size);
  if (!s.ok()) return s;
  platform::OpenFlags flags = OpsOf(primitive).open;
  Result<FileHandle> fd = platform.Open(file->path_, flags);
  if (!fd.ok()) {
    (void)platform.Unlink(file->path_);
    if (flags.direct && fd.status().error_number() == EINVAL) {
      return Status::Unsupported("the filesystem refuses O_DIRECT (open: EINVAL)");
    }
    return fd.status();
  }
  file->fd_ = std::move(*fd);
  return file;
}

SharedFile::~SharedFile() {
  (void)fd_.Close();
  (void)p_.Unlink(path_);
}

Result<std::unique_ptr<ProbeOp>> MakeWriterOp(Platform& platform, const std::string& dir,
                                              const ConcurrencySpec& spec, std::uint32_t index,
                                              std::uint64_t file_size, SharedFile* shared) {
  ProbeSpec probe{spec.primitive, Pattern::kOverwrite, spec.write_size};
  if (shared != nullptr) {
    std::unique_ptr<ProbeOp> op = std::make_unique<SharedWriterOp>(platform, shared->fd(), probe,
                                                                   file_size * index, file_size);
    return op;
  }
  const std::string own = WriterDir(dir, index);
  if (Status s = platform.MakeDirectory(own); !s.ok() && s.error_number() != EEXIST) return s;
  return MakeProbeOp(platform, own, probe, OpOptions{.file_size = file_size});
}

void RemoveWriterDirs(Platform& platform, const std::string& dir, std::uint32_t writers) {
  for (std::uint32_t i = 0; i < writers; ++i) (void)platform.RemoveDirectory(WriterDir(dir, i));
}

std::vector<LoopOutcome> RunWriterProcesses(Platform& platform, const std::string& dir,
                                            const ConcurrencySpec& spec, const StopRule& rule,
                                            std::uint64_t file_size, std::uint32_t* reported) {
  const std::uint32_t n = spec.writers;
  std::vector<LoopOutcome> outcomes(n);
  std::vector<std::unique_ptr<platform::ChildProcess>> children(n);
  std::vector<int> parent_ends;
  for (std::uint32_t i = 0; i < n; ++i) {
    Result<std::unique_ptr<platform::ChildProcess>> child = platform::ChildProcess::Start(
        platform,
        [&, i](platform::ChildChannel& channel) {
          return WriterProcess(platform, channel, dir, spec, i, rule, file_size);
        },
        parent_ends);
    if (!child.ok()) {
      outcomes[i].status = child.status();
      continue;
    }
    for (int fd : (*child)->ParentEnds()) parent_ends.push_back(fd);
    children[i] = std::move(*child);
  }
  for (std::uint32_t i = 0; i < n; ++i) {  // every writer set up (or failed) before any starts
    if (!children[i]) continue;
    Result<std::string> ready = children[i]->ReceiveFrame();
    if (!ready.ok()) outcomes[i].status = ready.status();
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    if (children[i] && outcomes[i].status.ok()) (void)children[i]->Send('g');
  }
  std::set<int> pids;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!children[i]) continue;
    Result<std::string> frame = children[i]->ReceiveFrame();
    int pid = 0;
    Result<LoopOutcome> out =
        frame.ok() ? Decode(*frame, &pid) : Result<LoopOutcome>(frame.status());
    if (out.ok()) {
      outcomes[i] = std::move(*out);
      if (pid != platform.ProcessId()) pids.insert(pid);
    } else if (outcomes[i].status.ok()) {
      outcomes[i].status = out.status();
    }
    (void)children[i]->Wait();
  }
  children.clear();
  RemoveWriterDirs(platform, dir, n);
  *reported = static_cast<std::uint32_t>(pids.size());
  return outcomes;
}

}  // namespace durprobe::probes
