#include "probes/probe_ops.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <utility>
#include <vector>

#include "probes/primitive_ops.h"

namespace durprobe::probes {
namespace {

using platform::FileHandle;
using platform::OpenFlags;
using platform::Platform;
using platform::SyncCall;

constexpr std::size_t kDirectAlignment = 4096;

// Times `call` as the op's sync part, its end being the op's end so far; returns its status
// unchanged (never retried).
template <typename Fn>
Status TimeSync(Platform& p, OpTiming* t, Fn&& call) {
  if (!t->time_sync) {
    Status s = call();
    t->end_ns = p.NowNanos();
    return s;
  }
  std::uint64_t s0 = p.NowNanos();
  Status s = call();
  t->end_ns = p.NowNanos();
  t->sync_ns = t->end_ns - s0;
  return s;
}

class WriteSyncOp final : public ProbeOp {
 public:
  WriteSyncOp(Platform& p, std::string dir, ProbeSpec spec, OpOptions options)
      : p_(p),
        path_(dir + "/probe.dat"),
        spec_(spec),
        ops_(OpsOf(spec.primitive)),
        options_(options),
        buffer_(spec.write_size, kDirectAlignment) {}

  Status Setup() override {
    if (buffer_.data() == nullptr) return Status::Error("could not allocate the write buffer");
    FillPattern(buffer_.data(), buffer_.size());
    if (ops_.write == WritePath::kRingLinked) {
      Result<std::unique_ptr<platform::IoRing>> ring = p_.MakeRing(4);
      if (!ring.ok()) return ring.status();
      ring_ = std::move(*ring);
    }
    if (ops_.open.direct && spec_.write_size % 512 != 0) {
      return Status::Unsupported(
          fmt::format("O_DIRECT needs a write size that is a multiple of the block size; {} is not",
                      spec_.write_size));
    }
    if (spec_.pattern == Pattern::kOverwrite) {
      Status s = Preallocate(p_, path_, options_.file_size);
      if (!s.ok()) return s;
    }
    return OpenFile(spec_.pattern != Pattern::kOverwrite);
  }

  Status RunOnce(OpTiming* t) override {
    const std::uint64_t bytes = BytesPerOp(spec_);
    if (spec_.pattern == Pattern::kOverwrite && offset_ + bytes > options_.file_size) offset_ = 0;
    Status s = WriteDurably(p_, ring_.get(), fd_.get(), spec_, buffer_.data(), offset_, t);
    if (!s.ok() && !s.unsupported()) s = FirstDirectWriteUnsupported(s);
    offset_ += bytes;
    ++writes_;
    return s;
  }

  bool NeedsMaintenance() const override {
    return spec_.pattern != Pattern::kOverwrite && offset_ + BytesPerOp(spec_) > options_.file_size;
  }

  Status Maintain() override {
    // The append or preallocated file is full: start a fresh one (untimed).
    Status control = control_fd_.Close();
    Status s = fd_.Close();
    if (s.ok()) s = control;
    if (s.ok()) s = p_.Unlink(path_);
    if (s.ok()) s = OpenFile(true);
    return s;
  }

  bool has_sync_part() const override { return ops_.sync.has_value(); }

  // The same writes at the same offsets through a second descriptor opened without O_DSYNC or
  // O_SYNC, with no sync call after them.
  Status RunControl() override {
    if (!control_fd_.valid()) {
      OpenFlags flags = ops_.open;
      flags.dsync = false;
      flags.sync = false;
      Result<FileHandle> file = p_.Open(path_, flags);
      if (!file.ok()) return file.status();
      control_fd_ = std::move(*file);
    }
    const std::uint64_t bytes = BytesPerOp(spec_);
    if (spec_.pattern == Pattern::kOverwrite && offset_ + bytes > options_.file_size) offset_ = 0;
    Status s;
    for (std::uint64_t i = 0; s.ok() && i < spec_.writes_per_op; ++i) {
      s = p_.PWrite(control_fd_.get(), buffer_.data(), spec_.write_size,
                    offset_ + i * spec_.write_size);
    }
    offset_ += bytes;
    return s;
  }

  Status Teardown() override {
    Status control = control_fd_.Close();
    Status s = fd_.Close();
    if (s.ok()) s = control;
    Status u = p_.Unlink(path_);
    return s.ok() && u.error_number() != ENOENT ? u : s;
  }

 private:
  Status OpenFile(bool fresh) {
    OpenFlags flags = ops_.open;
    flags.create = true;
    flags.truncate = fresh;
    Result<FileHandle> file = p_.Open(path_, flags);
    if (!file.ok()) {
      if (flags.direct && file.status().error_number() == EINVAL) {
        return Status::Unsupported("the filesystem refuses O_DIRECT (open: EINVAL)");
      }
      return file.status();
    }
    fd_ = std::move(*file);
    offset_ = 0;
    if (spec_.pattern == Pattern::kPreallocated && fresh) {
      // Reserve the whole file, unwritten, and make the reservation durable first (fio's
      // layout does the same), so the timed syncs pay only for converting written blocks.
      Status s = p_.Allocate(fd_.get(), options_.file_size);
      if (s.ok()) s = p_.Sync(fd_.get(), SyncCall::kFsync);
      if (!s.ok()) return s;
    }
    return Status::Ok();
  }

  // O_DIRECT is accepted at open by some filesystems and refused at the first write.
  Status FirstDirectWriteUnsupported(const Status& s) {
    if (writes_ == 0 && ops_.open.direct && s.error_number() == EINVAL) {
      return Status::Unsupported("the filesystem refuses O_DIRECT writes (EINVAL)");
    }
    return s;
  }

  Platform& p_;
  std::string path_;
  ProbeSpec spec_;
  const PrimitiveOps& ops_;
  OpOptions options_;
  platform::AlignedBuffer buffer_;
  std::unique_ptr<platform::IoRing> ring_;  // kRingLinked only
  FileHandle fd_;
  FileHandle control_fd_;  // RunControl's: the same file without the sync flags
  std::uint64_t offset_ = 0;
  std::uint64_t writes_ = 0;
};

class DirSyncOp final : public ProbeOp {
 public:
  static constexpr int kFilesBeforeSweep = 1000;

  DirSyncOp(Platform& p, std::string dir, ProbeSpec spec)
      : p_(p), dir_(dir + "/dir_probe"), spec_(spec) {}

  Status Setup() override {
    Status s = p_.MakeDirectory(dir_);
    if (!s.ok()) return s;
    if (spec_.pattern == Pattern::kRename) return CreateFile(Name(0));
    return p_.SyncDirectory(dir_);
  }

  Status RunOnce(OpTiming* t) override {
    Status s;
    if (spec_.pattern == Pattern::kCreate) {
      s = CreateFile(Name(++n_));
    } else {
      s = p_.Rename(Name(n_ % 2), Name((n_ + 1) % 2));
      ++n_;
    }
    if (s.ok()) s = TimeSync(p_, t, [&] { return p_.SyncDirectory(dir_); });
    return s;
  }

  bool NeedsMaintenance() const override {
    return spec_.pattern == Pattern::kCreate && n_ >= kFilesBeforeSweep;
  }
  Status Maintain() override { return Sweep(); }

  bool has_sync_part() const override { return true; }

  // The create or rename without the directory's sync.
  Status RunControl() override {
    if (spec_.pattern == Pattern::kCreate) return CreateFile(Name(++n_));
    Status s = p_.Rename(Name(n_ % 2), Name((n_ + 1) % 2));
    ++n_;
    return s;
  }

  Status Teardown() override {
    Status s = Sweep();
    if (spec_.pattern == Pattern::kRename) {
      Status u = p_.Unlink(Name(n_ % 2));
      if (s.ok()) s = u;
    }
    Status r = p_.RemoveDirectory(dir_);
    return s.ok() ? r : s;
  }

 private:
  std::string Name(std::uint64_t n) const { return NumberedFile(dir_, n); }
  Status CreateFile(const std::string& path) { return CreateEmptyFile(p_, path); }

  Status Sweep() {
    if (spec_.pattern != Pattern::kCreate) return Status::Ok();
    Status s = RemoveNumberedFiles(p_, dir_, n_);
    n_ = 0;
    return s;
  }

  Platform& p_;
  std::string dir_;
  ProbeSpec spec_;
  std::uint64_t n_ = 0;
};

// pg_test_fsync's "is a sync on another descriptor honored" pair.
class CrossDescriptorOp final : public ProbeOp {
 public:
  CrossDescriptorOp(Platform& p, std::string dir, ProbeSpec spec, OpOptions options)
      : p_(p),
        path_(dir + "/cross.dat"),
        spec_(spec),
        options_(options),
        buffer_(spec.write_size, kDirectAlignment),
        call_(OpsOf(spec.primitive).sync.value_or(SyncCall::kFsync)) {}

  Status Setup() override {
    if (buffer_.data() == nullptr) return Status::Error("could not allocate the write buffer");
    FillPattern(buffer_.data(), buffer_.size());
    return Preallocate(p_, path_,
                       std::max<std::uint64_t>(options_.file_size / 16, spec_.write_size));
  }

  Status RunOnce(OpTiming* t) override {
    Result<FileHandle> file = p_.Open(path_, OpenFlags{});
    if (!file.ok()) return file.status();
    Status s = p_.PWrite(file->get(), buffer_.data(), spec_.write_size, 0);
    if (s.ok() && spec_.pattern == Pattern::kWriteSyncClose) {
      s = TimeSync(p_, t, [&] { return p_.Sync(file->get(), call_); });
      Status c = file->Close();
      if (s.ok()) s = c;
    } else {
      Status c = file->Close();
      if (s.ok()) s = c;
      Result<FileHandle> again = s.ok() ? p_.Open(path_, OpenFlags{}) : Result<FileHandle>(s);
      if (!again.ok()) return again.status();
      s = TimeSync(p_, t, [&] { return p_.Sync(again->get(), call_); });
      Status c2 = again->Close();
      if (s.ok()) s = c2;
    }
    t->end_ns = p_.NowNanos();  // the close after the sync is part of the operation
    return s;
  }

  bool has_sync_part() const override { return true; }

  // Open, write, close: the same write without the sync on either descriptor.
  Status RunControl() override {
    Result<FileHandle> file = p_.Open(path_, OpenFlags{});
    if (!file.ok()) return file.status();
    Status s = p_.PWrite(file->get(), buffer_.data(), spec_.write_size, 0);
    Status c = file->Close();
    return s.ok() ? c : s;
  }

  Status Teardown() override { return p_.Unlink(path_); }

 private:
  Platform& p_;
  std::string path_;
  ProbeSpec spec_;
  OpOptions options_;
  platform::AlignedBuffer buffer_;
  SyncCall call_;  // fsync or fdatasync: Validate allows no other with these patterns
};

}  // namespace

void FillPattern(std::byte* buf, std::size_t n) {
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (std::size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    buf[i] = static_cast<std::byte>(x);
  }
}

Status Preallocate(Platform& p, const std::string& path, std::uint64_t size) {
  Result<FileHandle> file = p.Open(path, OpenFlags{.create = true, .truncate = true});
  if (!file.ok()) return file.status();
  const int fd = file->get();
  Status s = p.Allocate(fd, size);
  if (s.unsupported()) s = Status::Ok();  // the zeros below allocate the blocks anyway
  std::vector<char> zeros(1 << 20, 0);
  for (std::uint64_t off = 0; s.ok() && off < size; off += zeros.size()) {
    s = p.PWrite(fd, zeros.data(), std::min<std::uint64_t>(zeros.size(), size - off), off);
  }
  if (s.ok()) s = p.Sync(fd, SyncCall::kFsync);
  Status c = file->Close();
  return s.ok() ? c : s;
}

Status WriteDurably(Platform& p, platform::IoRing* ring, int fd, const ProbeSpec& spec,
                    const std::byte* buf, std::uint64_t offset, OpTiming* t) {
  const PrimitiveOps& ops = OpsOf(spec.primitive);
  if (ops.write == WritePath::kRingLinked && ring == nullptr) {
    return Status::Error("io_uring primitive without a ring");
  }
  // The writes of one operation land one after the other; the sync below covers them all.
  Status s;
  for (std::uint64_t i = 0; s.ok() && i < spec.writes_per_op; ++i) {
    const std::uint64_t at = offset + i * spec.write_size;
    switch (ops.write) {
      case WritePath::kPWriteDsync:
        s = p.PWriteDsync(fd, buf, spec.write_size, at);
        break;
      case WritePath::kRingLinked:
        s = ring->WriteThenSync(fd, buf, spec.write_size, at, ops.ring_datasync);
        break;
      case WritePath::kPWrite:
        s = p.PWrite(fd, buf, spec.write_size, at);
        break;
    }
  }
  if (!s.ok()) return s;
  if (ops.sync) {
    // The range is sync_file_range's; the other calls sync the whole file and ignore it.
    return TimeSync(p, t, [&] { return p.Sync(fd, *ops.sync, offset, BytesPerOp(spec)); });
  }
  t->end_ns = p.NowNanos();  // none, or the sync happened inside the write
  return Status::Ok();
}

std::string NumberedFile(const std::string& dir, std::uint64_t n) {
  return fmt::format("{}/f{}", dir, n);
}

Status CreateEmptyFile(Platform& platform, const std::string& path) {
  Result<FileHandle> file = platform.Open(path, OpenFlags{.create = true, .exclusive = true});
  if (!file.ok()) return file.status();
  return file->Close();
}

Status RemoveNumberedFiles(Platform& platform, const std::string& dir, std::uint64_t count) {
  for (std::uint64_t i = 1; i <= count; ++i) {
    Status s = platform.Unlink(NumberedFile(dir, i));
    if (!s.ok() && s.error_number() != ENOENT) return s;
  }
  return Status::Ok();
}

Result<std::unique_ptr<ProbeOp>> MakeProbeOp(Platform& platform, const std::string& scratch_dir,
                                             const ProbeSpec& spec, const OpOptions& options) {
  Status valid = Validate(spec);
  if (!valid.ok()) return valid;
  const PrimitiveOps& ops = OpsOf(spec.primitive);
  if (ops.sync) {
    Status supported = platform.SupportsSync(*ops.sync);
    if (!supported.ok()) return supported;
  }
  Status flags_ok = platform.SupportsOpenFlags(ops.open);
  if (!flags_ok.ok()) return flags_ok;

  std::unique_ptr<ProbeOp> op;
  if (ops.syncs_directory) {
    op = std::make_unique<DirSyncOp>(platform, scratch_dir, spec);
  } else if (spec.pattern == Pattern::kWriteSyncClose || spec.pattern == Pattern::kWriteCloseSync) {
    op = std::make_unique<CrossDescriptorOp>(platform, scratch_dir, spec, options);
  } else {
    op = std::make_unique<WriteSyncOp>(platform, scratch_dir, spec, options);
  }
  return op;
}

}  // namespace durprobe::probes
