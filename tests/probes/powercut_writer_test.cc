// The writer's loop (AckRecords) against a witness played by the test on a socket pair: a
// record is acknowledged only once its durable write returned (a failed one is never), and the
// writer stops when the witness goes away or leaves too many acks unanswered.
#include "probes/powercut_writer.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

#include "platform/tcp.h"
#include "probes/powercut_protocol.h"

namespace durprobe::probes::powercut_writer_test {

constexpr char kRun[] = "0123456789abcdef";

class SocketPair {
 public:
  SocketPair() { EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds_), 0); }
  ~SocketPair() {
    for (int fd : fds_) {
      if (fd >= 0) ::close(fd);
    }
  }
  int writer() const { return fds_[0]; }
  int witness() const { return fds_[1]; }
  void CloseWitness() {
    ::close(fds_[1]);
    fds_[1] = -1;
  }
  // Everything the writer sent so far.
  std::string Sent() {
    std::string out;
    for (;;) {
      const int fds[] = {fds_[1]};
      Result<std::vector<std::size_t>> ready = platform::WaitReadable(fds, 0);
      if (!ready.ok() || ready->empty()) return out;
      char buf[4096];
      Result<std::size_t> got = platform::TcpReceive(fds_[1], buf, sizeof buf);
      if (!got.ok() || *got == 0) return out;
      out.append(buf, *got);
    }
  }

 private:
  int fds_[2] = {-1, -1};
};

PowercutWriterOptions Options() {
  PowercutWriterOptions o;
  o.record_size = 512;
  o.max_outstanding = 4;
  o.receipt_timeout_ns = 100'000'000;
  return o;
}

TEST(PowercutWriterTest, ARecordIsAcknowledgedOnlyAfterItsWriteReturnedAndNeverWhenItFailed) {
  SocketPair pair;
  PowercutWriterOptions o = Options();
  o.max_outstanding = 100;
  std::uint64_t written = 0;
  PowercutWriteResult r = AckRecords(
      platform::Default(), pair.writer(), kRun, o,
      [&](std::uint64_t seq, std::span<const std::uint8_t> record, std::uint64_t) -> Status {
        EXPECT_EQ(record.size(), 512u);
        // Record seq's ack must not have gone out before this call returns.
        const std::string sent = pair.Sent();
        EXPECT_EQ(sent.find(fmt::format("ACK {} ", seq)), std::string::npos) << seq;
        if (seq == 3) return Status::Error("the sync failed");
        ++written;
        return Status::Ok();
      });
  EXPECT_EQ(r.stop, WriterStop::kIoError);
  EXPECT_EQ(r.synced, 3u);
  EXPECT_EQ(r.acked, 3u);
  EXPECT_NE(r.reason.find("record 3: the sync failed"), std::string::npos) << r.reason;
  EXPECT_EQ(written, 3u);
  EXPECT_EQ(pair.Sent().find("ACK 3 "), std::string::npos) << "a failed record was acknowledged";
}

TEST(PowercutWriterTest, TooManyUnansweredAcksStopTheWriter) {
  SocketPair pair;  // a witness that reads nothing and never answers
  PowercutWriteResult r = AckRecords(
      platform::Default(), pair.writer(), kRun, Options(),
      [](std::uint64_t, std::span<const std::uint8_t>, std::uint64_t) { return Status::Ok(); });
  EXPECT_EQ(r.stop, WriterStop::kWitnessSlow);
  EXPECT_EQ(r.acked, 5u) << "the fifth unanswered ack is one too many";
  EXPECT_EQ(r.receipts, 0u);
  EXPECT_NE(r.reason.find("fell behind"), std::string::npos) << r.reason;
}

TEST(PowercutWriterTest, ReceiptsLetItGoOnAndAWitnessThatLeavesStopsIt) {
  SocketPair pair;
  std::uint64_t n = 0;
  PowercutWriteResult r =
      AckRecords(platform::Default(), pair.writer(), kRun, Options(),
                 [&](std::uint64_t seq, std::span<const std::uint8_t>, std::uint64_t) -> Status {
                   // The witness answers every ack up to record 20, then goes away.
                   if (seq > 0 && seq <= 20) {
                     pair.Sent();
                     const std::string rcpt = fmt::format("RCPT {}\n", seq - 1);
                     EXPECT_TRUE(platform::TcpSend(pair.witness(), rcpt).ok());
                   }
                   if (seq == 21) pair.CloseWitness();
                   ++n;
                   return Status::Ok();
                 });
  EXPECT_EQ(r.stop, WriterStop::kWitnessGone) << r.reason;
  EXPECT_GE(r.acked, 21u);
  EXPECT_GE(r.receipts, 17u);
}

}  // namespace durprobe::probes::powercut_writer_test
