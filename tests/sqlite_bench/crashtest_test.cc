// Which acknowledged commits a crash state is held to: those that returned before the flush the
// state's cut came ahead of was logged (sqlite_bench::AckedBefore); the digest that says two runs
// logged the same workload (sqlite_bench::LogDigest).
#include "sqlite_bench/crashtest.h"

#include <gtest/gtest.h>

namespace durprobe::sqlite_bench {
namespace crashtest_test {

// Three commits, acknowledged when the log was 100, 250 and 400 bytes long; flushes whose
// records end at 90, 100, 300 and 500 bytes.
const std::vector<std::uint64_t> kAcks{100, 250, 400};
const std::vector<std::uint64_t> kFlushEnds{90, 100, 300, 500};

TEST(CrashtestAckTest, AStateHoldsTheCommitsAcknowledgedBeforeItsFlushWasLogged) {
  EXPECT_EQ(AckedBefore(kAcks, kFlushEnds, 0), 0u);  // before the first flush returned
  // The first commit returned with the log ending at flush 1's record: it waited for that flush,
  // so a cut before flush 1 returned came before it was acknowledged.
  EXPECT_EQ(AckedBefore(kAcks, kFlushEnds, 1), 0u);
  EXPECT_EQ(AckedBefore(kAcks, kFlushEnds, 2), 2u);
  EXPECT_EQ(AckedBefore(kAcks, kFlushEnds, 3), 3u);
}

TEST(CrashtestAckTest, AfterTheLastFlushEveryCommitWasAcknowledged) {
  EXPECT_EQ(AckedBefore(kAcks, kFlushEnds, 4), 3u);
  EXPECT_EQ(AckedBefore(kAcks, {}, 0), 3u);
  EXPECT_EQ(AckedBefore({}, kFlushEnds, 2), 0u);
}

// A log of the events given, each record 24 bytes plus its data, from `start` bytes into the log
// file: W(offset) a 512-byte write, kFlush a flush.
struct Ev {
  platform::CrashEvent::Kind kind;
  std::uint64_t offset = 0;
};
constexpr Ev W(std::uint64_t offset) { return {platform::CrashEvent::kWrite, offset}; }
constexpr Ev kFlush{platform::CrashEvent::kFlush, 0};

platform::CrashLog LogOf(const std::vector<Ev>& events, std::uint64_t start) {
  platform::CrashLog log;
  std::uint64_t at = start;
  for (const Ev& e : events) {
    const std::uint32_t length = e.kind == platform::CrashEvent::kWrite ? 512 : 0;
    at += sizeof(platform::CrashLogHeader);
    (length == 0 ? log.flushes : log.writes).push_back(log.events.size());
    log.events.push_back({e.kind, e.offset, length, at});
    at += length;
  }
  return log;
}

// Each commit acknowledged right after the flush at these event indexes.
std::string DigestAckedAfter(const platform::CrashLog& log, const std::vector<std::size_t>& at) {
  std::vector<std::uint64_t> acks;
  for (std::size_t i : at) acks.push_back(log.events[i].data_at);
  return LogDigest(log, acks);
}

TEST(CrashtestLogDigestTest, TheSameEventsAndAcknowledgementsGiveTheSameDigestWhereverTheyStart) {
  const std::vector<Ev> events{W(4096), kFlush, W(8192), kFlush};
  // Two runs whose logs held different bytes before the workload's checkpoint: the same
  // events, and each commit acknowledged after the same flush.
  const platform::CrashLog a = LogOf(events, 1000);
  const platform::CrashLog b = LogOf(events, 1024);
  const std::string digest = DigestAckedAfter(a, {1, 3});
  EXPECT_EQ(digest.size(), 16u);
  EXPECT_EQ(digest.find_first_not_of("0123456789abcdef"), std::string::npos) << digest;
  EXPECT_EQ(DigestAckedAfter(b, {1, 3}), digest);
  // The first commit acknowledged only after the second write was logged: another record.
  EXPECT_NE(DigestAckedAfter(a, {2, 3}), digest);
  // A write elsewhere, or a flush more between the writes: other logs.
  EXPECT_NE(DigestAckedAfter(LogOf({W(4096), kFlush, W(12288), kFlush}, 1000), {1, 3}), digest);
  EXPECT_NE(DigestAckedAfter(LogOf({W(4096), kFlush, W(0), kFlush, W(8192), kFlush}, 1000), {1, 5}),
            digest);
}

}  // namespace crashtest_test
}  // namespace durprobe::sqlite_bench
