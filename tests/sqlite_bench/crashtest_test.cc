// Which acknowledged commits a crash state is held to: those that returned before the flush the
// state's cut came ahead of was logged (sqlite_bench::AckedBefore).
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

}  // namespace crashtest_test
}  // namespace durprobe::sqlite_bench
