// What watch says when BPF cannot be used: the verifier's refusal with the end of its log (a
// program it must refuse, tests/platform/bpf/refused.bpf.c), and, as `nobody`, one line naming
// what is missing with exit status 2.
#include <gtest/gtest.h>
#include <unistd.h>

#include <string_view>

#include "platform/bpf_object.h"
#include "tests/cli_runner.h"

#if DURPROBE_HAVE_BPF
#include "platform/linux_bpf.h"

namespace durprobe::platform {
std::string_view RefusedBpfObject();
}  // namespace durprobe::platform
#endif

namespace durprobe {
namespace {

TEST(WatchRefusalTest, TheVerifiersRefusalShowsItsLog) {
#if DURPROBE_HAVE_BPF
  if (::geteuid() != 0) GTEST_SKIP() << "loading a BPF program needs root";
  Result<std::string> events = platform::TracefsEvents();
  if (!events.ok()) GTEST_SKIP() << events.status().message();
  Result<platform::BpfObject> object = platform::ParseBpfObject(platform::RefusedBpfObject());
  ASSERT_TRUE(object.ok()) << object.status().message();
  auto session = platform::BpfSession::Load(*object, *events, {});
  ASSERT_FALSE(session.ok());
  const std::string message = session.status().message();
  EXPECT_NE(message.find("verifier refused the BPF program refused"), std::string::npos) << message;
  // The verifier's own words for the unchecked lookup.
  EXPECT_NE(message.find("map_value_or_null"), std::string::npos) << message;
#else
  GTEST_SKIP() << "this build has no BPF observer (no clang)";
#endif
}

TEST(WatchRefusalTest, AnUnprivilegedUserGetsOneLineAndStatus2) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to run the binary as nobody";
  testing_support::CliRun run =
      testing_support::RunShell(testing_support::kAsNobody + DURPROBE_BINARY + " watch --for 1s");
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(testing_support::CountLines(run.err), 1) << run.err;
  EXPECT_NE(run.err.find("watch needs root"), std::string::npos) << run.err;
  EXPECT_EQ(run.out, "");
}

}  // namespace
}  // namespace durprobe
