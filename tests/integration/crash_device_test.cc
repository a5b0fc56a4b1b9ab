// The crash device on real filesystems (root, /dev/fuse and loop devices, else skipped with the
// reason): a file written and fsynced reaches the device as writes and flushes; the disk rebuilt
// at the flush the fsync waited for holds it, the disk as mkfs left it does not. Also how many
// states a minute the build, mount and unmount cycle makes (printed, never asserted).
#include "platform/crash_device.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "platform/scratch.h"
#include "tests/cli_runner.h"
#include "tests/test_dirs.h"

namespace durprobe {
namespace {

using platform::CrashDevice;
using platform::CrashLog;
using platform::CrashState;
using platform::CrashStateSpec;
using platform::FsSpec;

constexpr char kWitness[] = "witness";
constexpr char kText[] = "acknowledged before the cut";

struct Case {
  const char* type;
  std::uint64_t image_mib;  // mkfs.xfs refuses less than 300 MiB
  const char* options;
};

class CrashDeviceTest : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    if (!testing_support::IsRoot()) GTEST_SKIP() << "not root: the crash device needs mounts";
    Result<std::unique_ptr<platform::ScratchDir>> scratch =
        platform::ScratchDir::Create(p_, dir_.path());
    ASSERT_TRUE(scratch.ok()) << scratch.status().message();
    scratch_ = std::move(*scratch);
  }

  // Writes the witness file in dir and fsyncs it.
  void WriteWitness(const std::string& dir) {
    platform::OpenFlags flags;
    flags.create = true;
    Result<platform::FileHandle> f = p_.Open(dir + "/" + kWitness, flags);
    ASSERT_TRUE(f.ok()) << f.status().message();
    ASSERT_TRUE(p_.PWrite(f->get(), kText, sizeof kText - 1, 0).ok());
    Status synced = p_.Sync(f->get(), platform::SyncCall::kFsync);
    ASSERT_TRUE(synced.ok()) << synced.message();
  }

  // The witness's text in a mounted state, or "" when it is absent.
  std::string ReadWitness(const std::string& dir) {
    Result<std::string> text = p_.ReadTextFile(dir + "/" + kWitness, 4096);
    return text.ok() ? *text : "";
  }

  std::unique_ptr<CrashState> Build(const CrashDevice& device, const CrashLog& log,
                                    const CrashStateSpec& spec, const FsSpec& fs) {
    Result<std::unique_ptr<CrashState>> state =
        CrashState::Build(p_, scratch_->fd(), scratch_->work_path(), device.base_path(),
                          device.log_path(), log, spec, fs);
    EXPECT_TRUE(state.ok()) << state.status().message();
    return state.ok() ? std::move(*state) : nullptr;
  }

  platform::Platform& p_ = platform::Default();
  testing_support::TempDir dir_;
  std::unique_ptr<platform::ScratchDir> scratch_;
};

TEST_P(CrashDeviceTest, FsyncedFileIsInTheStateAtItsFlushAndNotInTheBase) {
  const Case& c = GetParam();
  platform::CrashDeviceOptions options;
  options.image_bytes = c.image_mib << 20;
  Result<std::unique_ptr<CrashDevice>> made =
      CrashDevice::Create(p_, scratch_->fd(), scratch_->work_path(), options);
  if (made.status().unsupported()) GTEST_SKIP() << made.status().message();
  ASSERT_TRUE(made.ok()) << made.status().message();
  CrashDevice& device = **made;
  FsSpec fs{c.type, c.options};
  Status formatted = device.Format(fs);
  ASSERT_TRUE(formatted.ok()) << formatted.message();
  Result<CrashLog> empty = device.ReadLog();
  ASSERT_TRUE(empty.ok()) << empty.status().message();
  EXPECT_EQ(empty->checkpoints, 1u);
  EXPECT_TRUE(empty->events.empty()) << "the checkpoint restarts the log";

  Result<std::string> mnt = device.Mount(fs);
  ASSERT_TRUE(mnt.ok()) << mnt.status().message();
  WriteWitness(*mnt);
  Result<CrashLog> synced = device.ReadLog();
  ASSERT_TRUE(synced.ok()) << synced.status().message();
  EXPECT_GT(synced->writes.size(), 0u);
  ASSERT_GT(synced->flushes.size(), 0u) << "fsync must reach the device as a flush";
  std::size_t at_fsync = synced->flushes.size();
  ASSERT_TRUE(device.Unmount().ok());
  Result<CrashLog> log = device.ReadLog();
  ASSERT_TRUE(log.ok()) << log.status().message();
  EXPECT_GE(log->flushes.size(), at_fsync);
  std::printf("%s: %zu writes, %zu flushes from mount to unmount\n", c.type, log->writes.size(),
              log->flushes.size());

  // The disk once the fsync's last flush returned, with nothing after it.
  std::unique_ptr<CrashState> kept = Build(device, *log, {at_fsync}, fs);
  ASSERT_NE(kept, nullptr);
  ASSERT_TRUE(kept->outcome().mounted)
      << kept->outcome().error << " / "
      << (kept->outcome().kernel.empty() ? "" : kept->outcome().kernel.back());
  EXPECT_EQ(ReadWitness(kept->mount_path()), kText);
  ASSERT_TRUE(kept->Release().ok());
  kept.reset();

  // The disk as mkfs left it: the filesystem mounts and the file was never there.
  std::unique_ptr<CrashState> base = Build(device, *log, {0}, fs);
  ASSERT_NE(base, nullptr);
  ASSERT_TRUE(base->outcome().mounted) << base->outcome().error;
  EXPECT_EQ(ReadWitness(base->mount_path()), "");
  base.reset();

  // How fast states are made: build, mount (recovery included), unmount, detach.
  const int kStates = 20;
  auto start = std::chrono::steady_clock::now();
  int mounted = 0;
  for (int i = 0; i < kStates; ++i) {
    std::size_t k = static_cast<std::size_t>(i) % (log->flushes.size() + 1);
    std::unique_ptr<CrashState> state = Build(device, *log, {k}, fs);
    ASSERT_NE(state, nullptr);
    mounted += state->outcome().mounted ? 1 : 0;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(mounted, kStates) << "every state at a flush of an honest device mounts";
  std::printf("%s: %d states (build, mount, unmount) in %.2f s: %.0f states/min\n", c.type, kStates,
              seconds, kStates * 60.0 / seconds);
  RecordProperty("states_per_minute", static_cast<int>(kStates * 60.0 / seconds));
}

INSTANTIATE_TEST_SUITE_P(Filesystems, CrashDeviceTest,
                         ::testing::Values(Case{"ext4", 128, "data=ordered"}, Case{"xfs", 320, ""},
                                           Case{"btrfs", 256, ""}),
                         [](const auto& param_info) { return std::string(param_info.param.type); });

// Lines of /proc/self/mountinfo and of `losetup -a` that name dir: what a run left there.
std::string LeftUnder(const std::string& dir) {
  return testing_support::RunShell("grep -F '" + dir + "/' /proc/self/mountinfo; losetup -a | " +
                                   "grep -F '" + dir + "/'")
      .out;
}

// A run killed with SIGKILL while its crash device is mounted leaves the mounts (the
// filesystem, and the FUSE mount under its loop device); `durprobe clean` undoes them and
// removes the scratch.
TEST(CrashDeviceCleanTest, CleanUndoesWhatAKilledRunLeft) {
  if (!testing_support::IsRoot()) GTEST_SKIP() << "not root: the crash device needs mounts";
  platform::Platform& p = platform::Default();
  testing_support::TempDir dir;
  Result<platform::Pipe> ready = p.MakePipe();
  ASSERT_TRUE(ready.ok());
  int ready_fd = ready->write.get();
  std::string target = dir.path();
  Result<int> holder = p.Spawn([&p, target, ready_fd] {
    Result<std::unique_ptr<platform::ScratchDir>> scratch = platform::ScratchDir::Create(p, target);
    if (!scratch.ok()) return 1;
    Result<std::unique_ptr<CrashDevice>> device =
        CrashDevice::Create(p, (*scratch)->fd(), (*scratch)->work_path(), {});
    char answer = 'u';
    if (device.ok() && (*device)->Format({"ext4", ""}).ok() &&
        (*device)->Mount({"ext4", ""}).ok()) {
      answer = 'r';
    } else if (device.ok() || !device.status().unsupported()) {
      answer = 'e';
    }
    (void)p.WriteAll(ready_fd, &answer, 1);
    if (answer != 'r') return 1;
    for (;;) ::pause();  // holds the device until killed
  });
  ASSERT_TRUE(holder.ok()) << holder.status().message();
  (void)ready->write.Close();
  char answer = 0;
  Result<std::size_t> n = p.ReadSome(ready->read.get(), &answer, 1);
  if (n.ok() && *n == 1 && answer == 'u') {
    ::waitpid(*holder, nullptr, 0);
    GTEST_SKIP() << "no /dev/fuse or loop devices";
  }
  ASSERT_EQ(answer, 'r') << "the holder could not make and mount its crash device";
  ASSERT_NE(LeftUnder(target), "");
  ::kill(*holder, SIGKILL);
  ::waitpid(*holder, nullptr, 0);
  // Its FUSE server dies with it (PR_SET_PDEATHSIG) and lets the scratch's lock go.
  testing_support::CliRun clean;
  for (int i = 0; i < 50; ++i) {
    clean = testing_support::RunDurprobe("clean " + target);
    if (clean.out.find("still running") == std::string::npos) break;
    ::usleep(100000);
  }
  EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
  EXPECT_NE(clean.out.find("unmounted"), std::string::npos) << clean.out;
  EXPECT_NE(clean.out.find("removed"), std::string::npos) << clean.out;
  EXPECT_EQ(LeftUnder(target), "");
}

}  // namespace
}  // namespace durprobe
