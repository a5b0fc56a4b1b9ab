// The ways out the process seam gives a run (issue 23): a read from a worker's pipe and a wait for
// a worker end once the run is interrupted; a write to a pipe whose reader has gone is an EPIPE
// error, not a SIGPIPE that would read as "stdout closed"; a thread the OS refuses is a Status.
#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <string>

#include "platform/interrupt.h"
#include "platform/platform.h"
#include "platform/thread.h"

namespace durprobe::platform {
namespace {

class InterruptedProcessTest : public ::testing::Test {
 protected:
  void TearDown() override { SetInterruptSignalForTest(0); }
};

TEST_F(InterruptedProcessTest, ReadFromAQuietPipeEndsOnInterruption) {
  Platform& p = Default();
  Result<Pipe> pipe = p.MakePipe();
  ASSERT_TRUE(pipe.ok()) << pipe.status().message();
  SetInterruptSignalForTest(SIGHUP);
  char c;
  Result<std::size_t> n = p.ReadSome(pipe->read.get(), &c, 1);  // nothing will ever come
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.status().kind(), Status::Kind::kInterrupted);
}

TEST_F(InterruptedProcessTest, WaitKillsAChildThatWouldNeverEndOnceInterrupted) {
  Platform& p = Default();
  Result<Pipe> pipe = p.MakePipe();
  ASSERT_TRUE(pipe.ok());
  // The child waits for a byte that never comes: the parent keeps the write end open.
  Result<int> pid = p.Spawn([&] {
    char c;
    for (;;) (void)p.ReadSome(pipe->read.get(), &c, 1);
    return 0;
  });
  ASSERT_TRUE(pid.ok()) << pid.status().message();
  SetInterruptSignalForTest(SIGTERM);
  Result<int> code = p.WaitChild(*pid);
  ASSERT_FALSE(code.ok());
  EXPECT_EQ(code.status().kind(), Status::Kind::kInterrupted);
}

TEST_F(InterruptedProcessTest, WriteToAPipeWithoutReaderIsEpipeNotASignal) {
  InstallInterruptHandlers();  // SIGPIPE is recorded, as in durprobe
  Platform& p = Default();
  Result<Pipe> pipe = p.MakePipe();
  ASSERT_TRUE(pipe.ok());
  ASSERT_TRUE(pipe->read.Close().ok());
  Status s = p.WriteAll(pipe->write.get(), "g", 1);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.error_number(), EPIPE);
  EXPECT_EQ(InterruptSignal(), 0) << "a worker's closed pipe must not read as stdout closed";
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) ::signal(sig, SIG_DFL);
}

TEST_F(InterruptedProcessTest, EverySignalThatEndsARunHasAName) {
  EXPECT_STREQ(SignalName(SIGINT), "SIGINT");
  EXPECT_STREQ(SignalName(SIGTERM), "SIGTERM");
  EXPECT_STREQ(SignalName(SIGHUP), "SIGHUP");
  EXPECT_STREQ(SignalName(SIGQUIT), "SIGQUIT");
  EXPECT_STREQ(SignalName(SIGPIPE), "SIGPIPE (output closed)");
}

TEST_F(InterruptedProcessTest, AThreadStartsAndRuns) {
  int ran = 0;
  Result<std::thread> t = StartThread([&] { ran = 1; });
  ASSERT_TRUE(t.ok()) << t.status().message();
  t->join();
  EXPECT_EQ(ran, 1);
}

}  // namespace
}  // namespace durprobe::platform
