#include "probes/powercut_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <span>

#include "platform/aligned_buffer.h"
#include "platform/interrupt.h"
#include "platform/tcp.h"
#include "probes/powercut_protocol.h"
#include "probes/powercut_record.h"
#include "probes/primitive_ops.h"

namespace durprobe::probes {
namespace {

constexpr std::size_t kZeroChunk = 1 << 20;
constexpr std::size_t kAlign = 4096;
constexpr std::uint64_t kReceiptEvery = 16;

// Receipts on the witness connection: reads what arrived, keeps the highest RCPT.
class ReceiptReader {
 public:
  explicit ReceiptReader(int socket) : socket_(socket) {}
  // Waits up to wait_ns for bytes; Ok with the new highest receipt count, or an Error when the
  // witness closed the connection, sent ERR or sent something that is not a receipt.
  Status Poll(std::uint64_t wait_ns) {
    const int fds[] = {socket_};
    Result<std::vector<std::size_t>> ready = platform::WaitReadable(fds, wait_ns);
    if (!ready.ok()) return ready.status();
    if (ready->empty()) return Status::Ok();
    char buf[4096];
    Result<std::size_t> got = platform::TcpReceive(socket_, buf, sizeof buf);
    if (!got.ok()) return got.status();
    if (*got == 0) return Status::Error("the witness closed the connection");
    lines_.Append(std::string_view(buf, *got));
    while (std::optional<std::string> line = lines_.Next()) {
      Result<Message> m = ParseMessage(*line);
      if (m.ok() && m->kind == MessageKind::kReceipt) {
        receipts_ = std::max(receipts_, m->sequence + 1);
        continue;
      }
      if (m.ok() && m->kind == MessageKind::kError) {
        return Status::Error("the witness refused: " + m->text);
      }
      return Status::Error(fmt::format("the witness sent '{}'", line->substr(0, 60)));
    }
    return Status::Ok();
  }
  std::uint64_t receipts() const { return receipts_; }

 private:
  int socket_;
  LineBuffer lines_;
  std::uint64_t receipts_ = 0;
};

}  // namespace

std::string_view NameOf(WriterStop s) {
  switch (s) {
    case WriterStop::kDuration:
      return "duration";
    case WriterStop::kInterrupted:
      return "interrupted";
    case WriterStop::kWitnessGone:
      return "witness_gone";
    case WriterStop::kWitnessSlow:
      return "witness_slow";
    case WriterStop::kIoError:
      return "io_error";
  }
  return "io_error";
}

double PowercutWriteResult::RecordsPerSecond() const {
  return elapsed_ns == 0 ? 0.0
                         : static_cast<double>(synced) * 1e9 / static_cast<double>(elapsed_ns);
}

Status CheckWriterPrimitive(Primitive p) {
  const PrimitiveOps& ops = OpsOf(p);
  const bool plain = ops.write == WritePath::kPWrite || ops.write == WritePath::kPWriteDsync;
  if (!ops.durable || !plain || ops.syncs_directory) {
    return Status::InvalidArgument(
        fmt::format("--primitive {}: powercut writes records with a durable primitive on one file "
                    "(fdatasync, fsync, odsync, osync, odirect_dsync, rwf_dsync, full_fsync)",
                    ops.name));
  }
  return Status::Ok();
}

Result<platform::FileHandle> PreallocateRecords(platform::Platform& platform,
                                                const std::string& dir, const std::string& file,
                                                const PowercutWriterOptions& options) {
  platform::OpenFlags flags = OpsOf(options.primitive).open;
  flags.create = true;
  flags.exclusive = true;
  Result<platform::FileHandle> fd = platform.Open(dir + "/" + file, flags);
  if (!fd.ok()) return fd.status();
  platform::AlignedBuffer zeros(kZeroChunk, kAlign);
  std::memset(zeros.data(), 0, zeros.size());
  for (std::uint64_t at = 0; at < options.file_bytes; at += kZeroChunk) {
    const std::size_t n = std::min<std::uint64_t>(kZeroChunk, options.file_bytes - at);
    if (Status s = platform.PWrite(fd->get(), zeros.data(), n, at); !s.ok()) return s;
  }
  if (Status s = platform.Sync(fd->get(), platform::SyncCall::kFsync); !s.ok()) return s;
  if (Status s = platform.SyncDirectory(dir); !s.ok()) return s;
  return fd;
}

PowercutWriteResult WriteRecords(platform::Platform& platform, int fd, int socket,
                                 const std::string& run_id, const PowercutWriterOptions& options) {
  const PrimitiveOps& ops = OpsOf(options.primitive);
  const std::uint64_t slots = options.file_bytes / options.record_size;
  return AckRecords(platform, socket, run_id, options,
                    [&](std::uint64_t seq, std::span<const std::uint8_t> record, std::uint64_t) {
                      const std::uint64_t at = seq % slots * record.size();
                      Status s = ops.write == WritePath::kPWriteDsync
                                     ? platform.PWriteDsync(fd, record.data(), record.size(), at)
                                     : platform.PWrite(fd, record.data(), record.size(), at);
                      if (s.ok() && ops.sync) s = platform.Sync(fd, *ops.sync, at, record.size());
                      return s;
                    });
}

PowercutWriteResult AckRecords(platform::Platform& platform, int socket, const std::string& run_id,
                               const PowercutWriterOptions& options, const DurableWrite& write) {
  PowercutWriteResult r;
  platform::AlignedBuffer buffer(options.record_size, kAlign);
  std::span<std::uint8_t> record(reinterpret_cast<std::uint8_t*>(buffer.data()), buffer.size());
  ReceiptReader receipts(socket);
  const std::uint64_t start = platform.NowNanos();
  auto stop = [&](WriterStop why, std::string reason) {
    r.stop = why;
    r.reason = std::move(reason);
  };
  for (std::uint64_t seq = 0;; ++seq) {
    if (platform::InterruptSignal() != 0) {
      stop(WriterStop::kInterrupted, "");
      break;
    }
    if (options.duration_ns > 0 && platform.NowNanos() - start >= options.duration_ns) {
      stop(WriterStop::kDuration, "");
      break;
    }
    const std::uint64_t sum = EncodeRecord(seq, run_id, record);
    if (Status s = write(seq, record, receipts.receipts()); !s.ok()) {
      stop(WriterStop::kIoError, fmt::format("record {}: {}", seq, s.message()));
      break;
    }
    ++r.synced;
    // Only now, with the sync returned, may the witness hear of it.
    Message ack;
    ack.kind = MessageKind::kAck;
    ack.sequence = seq;
    ack.checksum = sum;
    if (Status sent = platform::TcpSend(socket, FormatMessage(ack)); !sent.ok()) {
      stop(WriterStop::kWitnessGone,
           fmt::format("the witness went away after record {}: {}", seq, sent.message()));
      break;
    }
    ++r.acked;
    // Receipts are read every kReceiptEvery acks, or at once when many are outstanding: a look
    // per record would cost a system call per record for nothing.
    const bool look =
        seq % kReceiptEvery == 0 || r.acked - receipts.receipts() > options.max_outstanding / 2;
    Status polled = look ? receipts.Poll(0) : Status::Ok();
    std::uint64_t waited_from = 0;
    while (polled.ok() && r.acked - receipts.receipts() > options.max_outstanding) {
      const std::uint64_t now = platform.NowNanos();
      if (waited_from == 0) waited_from = now;
      if (now - waited_from >= options.receipt_timeout_ns) break;
      polled = receipts.Poll(std::min<std::uint64_t>(100'000'000, options.receipt_timeout_ns));
    }
    if (!polled.ok()) {
      stop(WriterStop::kWitnessGone, fmt::format("after record {}: {}", seq, polled.message()));
      break;
    }
    if (r.acked - receipts.receipts() > options.max_outstanding) {
      stop(WriterStop::kWitnessSlow,
           fmt::format("the witness fell behind: {} acks without a receipt for {} ms",
                       r.acked - receipts.receipts(), options.receipt_timeout_ns / 1000000));
      break;
    }
  }
  r.elapsed_ns = platform.NowNanos() - start;
  // A clean stop waits for the last receipts, so the witness holds every ack sent.
  if (r.stop != WriterStop::kWitnessGone && r.stop != WriterStop::kWitnessSlow) {
    const std::uint64_t until = platform.NowNanos() + options.receipt_timeout_ns;
    while (receipts.receipts() < r.acked && platform.NowNanos() < until) {
      if (Status s = receipts.Poll(100'000'000); !s.ok()) break;
    }
  }
  r.receipts = receipts.receipts();
  return r;
}

}  // namespace durprobe::probes
