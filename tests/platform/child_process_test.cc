// ChildProcess (issue 23, point 1): a child started after another closes the parent's ends of the
// first one's pipes, so closing them in the parent is an end of stream the first child sees.
// Without the close list the first child's wait below never returns.
#include "platform/child_process.h"

#include <gtest/gtest.h>

#include <memory>

namespace durprobe::platform {
namespace {

TEST(ChildProcessTest, AnEarlierChildSeesEndOfStreamWhileALaterOneRuns) {
  Platform& p = Default();
  // Each child waits for a byte; end of stream (an error) makes it exit 3.
  auto wait_for_byte = [](ChildChannel& channel) { return channel.Receive().ok() ? 0 : 3; };
  Result<std::unique_ptr<ChildProcess>> first = ChildProcess::Start(p, wait_for_byte);
  ASSERT_TRUE(first.ok()) << first.status().message();
  Result<std::unique_ptr<ChildProcess>> second =
      ChildProcess::Start(p, wait_for_byte, (*first)->ParentEnds());
  ASSERT_TRUE(second.ok()) << second.status().message();
  first->reset();  // closes the parent's ends, then waits: the second child must not hold them
  ASSERT_TRUE((*second)->Send('g').ok());
  Result<int> code = (*second)->Wait();
  ASSERT_TRUE(code.ok()) << code.status().message();
  EXPECT_EQ(*code, 0);
}

TEST(ChildProcessTest, SendingToAChildThatHasExitedIsAnError) {
  Platform& p = Default();
  Result<std::unique_ptr<ChildProcess>> child =
      ChildProcess::Start(p, [](ChildChannel&) { return 0; });
  ASSERT_TRUE(child.ok());
  Result<int> code = (*child)->Wait();  // exited without reading: its read end is gone
  ASSERT_TRUE(code.ok());
  EXPECT_FALSE((*child)->Send('g').ok());
}

}  // namespace
}  // namespace durprobe::platform
