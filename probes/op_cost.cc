#include "probes/op_cost.h"

#include <fmt/format.h>

#include <cerrno>
#include <memory>
#include <utility>

#include "platform/enum_table.h"

namespace durprobe::probes {
namespace {

using platform::OpenFlags;
using platform::Platform;

constexpr std::uint64_t kIoSize = 4096;
constexpr std::uint64_t kFileSize = 1 << 20;
constexpr int kCreatesBeforeSweep = 1000;

class FileOpProbe final : public ProbeOp {
 public:
  FileOpProbe(Platform& p, const std::string& dir, FileOp op)
      : p_(p), dir_(dir + "/op_cost"), file_(dir_ + "/file"), op_(op), buffer_(kIoSize, 4096) {}

  Status Setup() override {
    if (buffer_.data() == nullptr) return Status::Error("could not allocate the I/O buffer");
    for (std::size_t i = 0; i < kIoSize; ++i) buffer_.data()[i] = static_cast<std::byte>(i * 7);
    Status s = p_.MakeDirectory(dir_);
    if (!s.ok()) return s;
    Result<platform::FileHandle> fd = p_.Open(file_, OpenFlags{.create = true, .truncate = true});
    if (!fd.ok()) return fd.status();
    fd_ = std::move(*fd);
    for (std::uint64_t off = 0; s.ok() && off < kFileSize; off += kIoSize) {
      s = p_.PWrite(fd_.get(), buffer_.data(), kIoSize, off);
    }
    return s;
  }

  Status RunOnce(OpTiming* t) override {
    Status s;
    switch (op_) {
      case FileOp::kWrite:
        s = p_.PWrite(fd_.get(), buffer_.data(), kIoSize, Next());
        break;
      case FileOp::kRead: {
        Result<std::size_t> n = p_.PRead(fd_.get(), buffer_.data(), kIoSize, Next());
        s = n.ok() ? Status::Ok() : n.status();
        break;
      }
      case FileOp::kOpenClose: {
        Result<platform::FileHandle> fd = p_.Open(file_, OpenFlags{.read_only = true});
        s = fd.ok() ? fd->Close() : fd.status();
        break;
      }
      case FileOp::kStat:
        s = p_.KindOf(file_) == platform::PathKind::kFile
                ? Status::Ok()
                : Status::Error(fmt::format("stat {}: the file is gone", file_));
        break;
      case FileOp::kCreate:
        s = CreateEmptyFile(p_, Name(++n_));
        break;
      case FileOp::kRename:
        s = p_.Rename(n_ % 2 == 0 ? file_ : Name(0), n_ % 2 == 0 ? Name(0) : file_);
        ++n_;
        break;
    }
    t->end_ns = p_.NowNanos();
    return s;
  }

  bool NeedsMaintenance() const override {
    return op_ == FileOp::kCreate && n_ >= kCreatesBeforeSweep;
  }
  Status Maintain() override { return SweepCreated(); }
  bool has_sync_part() const override { return false; }

  Status Teardown() override {
    Status s = fd_.Close();
    Status swept = SweepCreated();
    Status back = op_ == FileOp::kRename && n_ % 2 == 1 ? p_.Rename(Name(0), file_) : Status::Ok();
    Status u = p_.Unlink(file_);
    Status r = p_.RemoveDirectory(dir_);
    for (const Status& each : {swept, back, u, r}) {
      if (s.ok() && !each.ok() && each.error_number() != ENOENT) s = each;
    }
    return s;
  }

 private:
  std::uint64_t Next() {
    std::uint64_t off = offset_;
    offset_ = (offset_ + kIoSize) % kFileSize;
    return off;
  }
  std::string Name(std::uint64_t n) const { return NumberedFile(dir_, n); }

  Status SweepCreated() {
    if (op_ != FileOp::kCreate) return Status::Ok();
    Status s = RemoveNumberedFiles(p_, dir_, n_);
    n_ = 0;
    return s;
  }

  Platform& p_;
  std::string dir_, file_;
  FileOp op_;
  platform::AlignedBuffer buffer_;
  platform::FileHandle fd_;
  std::uint64_t offset_ = 0;
  std::uint64_t n_ = 0;
};

}  // namespace

constexpr platform::TextRow<FileOp> kFileOpNames[] = {
    {FileOp::kWrite, "write"}, {FileOp::kRead, "read"},     {FileOp::kOpenClose, "open_close"},
    {FileOp::kStat, "stat"},   {FileOp::kCreate, "create"}, {FileOp::kRename, "rename"},
};
static_assert(platform::OneRowPerValue(kFileOpNames, kLastFileOp), "one name per FileOp");

std::string_view NameOf(FileOp op) { return platform::TextIn(kFileOpNames, op); }

const std::vector<FileOp>& AllFileOps() {
  static const std::vector<FileOp> ops = {FileOp::kWrite, FileOp::kRead,   FileOp::kOpenClose,
                                          FileOp::kStat,  FileOp::kCreate, FileOp::kRename};
  return ops;
}

LoopOutcome SampleOpCost(platform::Platform& platform, const std::string& scratch_dir, FileOp op,
                         const StopRule& rule) {
  FileOpProbe probe(platform, scratch_dir, op);
  return Measure(platform, probe, rule);
}

OpCostResult ToOpCostResult(FileOp op, const LoopOutcome& loop) {
  OpCostResult r;
  r.op = op;
  r.size = op == FileOp::kWrite || op == FileOp::kRead ? kIoSize : 0;
  r.ops = loop.ops;
  r.seconds = static_cast<double>(loop.elapsed_ns) / 1e9;
  r.ops_per_sec = r.seconds > 0 ? static_cast<double>(r.ops) / r.seconds : 0.0;
  r.latency = Summarize(loop.total);
  if (!loop.status.ok()) {
    r.outcome =
        loop.status.kind() == Status::Kind::kInterrupted ? Outcome::kInterrupted : Outcome::kError;
    r.reason = loop.status.message();
  }
  return r;
}

}  // namespace durprobe::probes
