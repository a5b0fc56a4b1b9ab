// The power-cut tests' two hosts on one machine (tests/integration/powercut_test.cc,
// powercut_wrap_test.cc): two network namespaces joined by a veth pair with addresses inside them
// only (10.213.7.0/30), the witness in one and the writer in the other, both the real binary
// (nsenter --net: no mount namespace of their own); a cut of the crash device and the verify of
// the disk after it (CutOnce). Every namespace, mount, loop device and process is undone by
// destructors, even on failure.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "platform/crash_device.h"
#include "platform/scratch.h"
#include "tests/cli_runner.h"
#include "tests/test_dirs.h"

namespace durprobe {
namespace powercut_test {

using nlohmann::json;
using testing_support::CliRun;
using testing_support::RunShell;

constexpr char kWitnessAddr[] = "10.213.7.1";
constexpr char kWriterAddr[] = "10.213.7.2";
constexpr int kPort = 7199;

inline std::string Witness() { return std::string(kWitnessAddr) + ":" + std::to_string(kPort); }

// The two hosts: namespaces dp-pc-w-PID (witness) and dp-pc-h-PID (host under test), a veth
// pair between them, addresses inside only. Deleted (with their links) by the destructor.
class TwoHosts {
 public:
  TwoHosts()
      : witness_("dp-pc-w-" + std::to_string(::getpid())),
        host_("dp-pc-h-" + std::to_string(::getpid())) {}
  ~TwoHosts() {
    if (made_witness_) (void)RunShell("ip netns del " + witness_);
    if (made_host_) (void)RunShell("ip netns del " + host_);
  }
  // "" when ready, else why not.
  std::string Make() {
    CliRun a = RunShell("ip netns add " + witness_);
    if (a.exit_code != 0) return "ip netns add failed: " + a.err;
    made_witness_ = true;
    CliRun b = RunShell("ip netns add " + host_);
    if (b.exit_code != 0) return "ip netns add failed: " + b.err;
    made_host_ = true;
    const std::string w = "ip -n " + witness_ + " ", h = "ip -n " + host_ + " ";
    CliRun link = RunShell("ip link add dppcw netns " + witness_ +
                           " type veth peer name dppch netns " + host_);
    if (link.exit_code != 0) return "veth pair refused: " + link.err;
    CliRun up =
        RunShell(w + "link set lo up && " + h + "link set lo up && " + w + "addr add " +
                 kWitnessAddr + "/30 dev dppcw && " + h + "addr add " + kWriterAddr +
                 "/30 dev dppch && " + w + "link set dppcw up && " + h + "link set dppch up");
    if (up.exit_code != 0) return "addresses refused: " + up.err;
    return "";
  }
  const std::string& witness() const { return witness_; }
  const std::string& host() const { return host_; }

 private:
  std::string witness_, host_;
  bool made_witness_ = false, made_host_ = false;
};

// The command that runs the rest of a command line in network namespace ns, and in no new mount
// namespace: `ip netns exec` would also copy every mount there is into one of its own, and a FUSE
// mount another test made meanwhile (the lab's bindfs) would then outlive its unmount, its server
// holding the filesystem under it busy for as long as the process here runs.
inline std::string InNetns(const std::string& ns) { return "nsenter --net=/run/netns/" + ns + " "; }

// A durprobe started in a namespace, its output in files; killed (SIGKILL) and reaped by the
// destructor if still running.
class Background {
 public:
  Background(const std::string& ns, const std::string& args, const std::string& dir,
             const std::string& name)
      : out_(dir + "/" + name + ".out"), err_(dir + "/" + name + ".err") {
    const std::string command =
        "exec " + InNetns(ns) + DURPROBE_BINARY + " " + args + " >" + out_ + " 2>" + err_;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
  }
  ~Background() { Kill(SIGKILL); }
  // Waits up to timeout for the exit; its status, or -1 when still running.
  int Wait(std::chrono::milliseconds timeout) {
    if (pid_ <= 0) return code_;
    const auto until = std::chrono::steady_clock::now() + timeout;
    for (;;) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = 0;
        code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return code_;
      }
      if (std::chrono::steady_clock::now() >= until) return -1;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  int Kill(int signal_number) {
    if (pid_ <= 0) return code_;
    ::kill(pid_, signal_number);
    return Wait(std::chrono::seconds(30));
  }
  std::string err() const { return testing_support::Slurp(err_); }
  std::string out() const { return testing_support::Slurp(out_); }

 private:
  std::string out_, err_;
  pid_t pid_ = -1;
  int code_ = -1;
};

// Waits until text appears in the background's stderr (or it exits); the stderr.
inline std::string WaitFor(Background& b, const std::string& text,
                           std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < until) {
    std::string err = b.err();
    if (err.find(text) != std::string::npos) return err;
    if (b.Wait(std::chrono::milliseconds(0)) >= 0) return b.err();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return b.err();
}

inline std::string RunIdIn(const std::string& err) {
  std::smatch m;
  if (std::regex_search(err, m, std::regex("run ([0-9a-f]{16})"))) return m[1];
  return "";
}

struct CutPlan {
  platform::CacheMode mode = platform::CacheMode::kHonest;
  int index = 0;
  std::string args;  // more for the writer: --mode, ...
  std::string file_size = "48MiB";
  std::uint32_t block_bytes = 0;  // ext4's block size (0: mke2fs's choice, 1 KiB here)
  int wait_ms = 600;              // from the writer's start to the cut (+150 ms per index)
};

struct CutOutcome {
  std::string run_id;
  int verify_exit = -1;
  int writer_exit = -1;  // 0 only if it finished before the cut
  json evidence;
  std::string detail;  // what was printed, for failures
  bool skip = false;   // no crash device here (detail says why)
};

class PowercutTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!testing_support::IsRoot()) GTEST_SKIP() << "not root: namespaces and mounts need root";
    if (RunShell("command -v ip").exit_code != 0) GTEST_SKIP() << "no ip(8) here";
    const std::string why = hosts_.Make();
    if (!why.empty()) GTEST_SKIP() << "two network namespaces with veth: " << why;
  }

  std::unique_ptr<Background> StartWitness(const std::string& log, const std::string& name) {
    auto w = std::make_unique<Background>(
        hosts_.witness(),
        "powercut witness --listen " + Witness() + " --log " + log + " --for 300s", dir_.path(),
        name);
    const std::string err = WaitFor(*w, "listening on", std::chrono::seconds(10));
    EXPECT_NE(err.find("listening on"), std::string::npos) << err;
    return w;
  }

  CliRun Verify(const std::string& path, const std::string& run_id, const std::string& more) {
    return RunShell(InNetns(hosts_.host()) + DURPROBE_BINARY + " powercut verify " + path +
                    " --witness " + Witness() + (run_id.empty() ? "" : " --run-id " + run_id) +
                    " " + more);
  }

  // One run: a fresh ext4 on a crash device in mode, the writer on it for about a second, the
  // cut, the disk after the cut mounted and verified.
  CutOutcome CutOnce(platform::CacheMode mode, int index, const std::string& mode_args = "") {
    CutPlan plan;
    plan.mode = mode;
    plan.index = index;
    plan.args = mode_args;
    return Cut(plan);
  }
  CutOutcome Cut(const CutPlan& plan);

  TwoHosts hosts_;
  testing_support::TempDir dir_{"/var/tmp"};
};

inline CutOutcome PowercutTest::Cut(const CutPlan& plan) {
  const int index = plan.index;
  CutOutcome o;
  platform::Platform& p = platform::Default();
  Result<std::unique_ptr<platform::ScratchDir>> scratch =
      platform::ScratchDir::Create(p, dir_.path());
  if (!scratch.ok()) {
    o.detail = "scratch: " + scratch.status().message();
    return o;
  }
  platform::CrashDeviceOptions options;
  options.mode = plan.mode;
  options.cache_bytes = 1 << 20;  // ignores-flush: the oldest written out past 1 MiB
  Result<std::unique_ptr<platform::CrashDevice>> device =
      platform::CrashDevice::Create(p, (*scratch)->fd(), (*scratch)->work_path(), options);
  if (!device.ok()) {
    o.skip = device.status().unsupported();
    o.detail = "crash device: " + device.status().message();
    return o;
  }
  platform::FsSpec fs{"ext4", ""};
  fs.block_bytes = plan.block_bytes;
  if (Status s = (*device)->Format(fs); !s.ok()) {
    o.detail = "mkfs: " + s.message();
    return o;
  }
  Result<std::string> mnt = (*device)->Mount(fs);
  if (!mnt.ok()) {
    o.detail = "mount: " + mnt.status().message();
    return o;
  }
  // The writer runs in another process: it reaches the mount by its real name.
  const std::string path = (*scratch)->shown_path() + "/crash-mnt";
  {
    Background writer(hosts_.host(),
                      "powercut write " + path + " --witness " + Witness() + " --file-size " +
                          plan.file_size + " --for 60s " + plan.args,
                      dir_.path(), "writer" + std::to_string(index));
    const std::string err = WaitFor(writer, "after the reboot run", std::chrono::seconds(30));
    o.run_id = RunIdIn(err);
    if (o.run_id.empty()) {
      o.detail = "the writer did not start: " + err;
      return o;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(plan.wait_ms + 150 * (index % 8)));
    // The power cut: the device's server dies with its cache; the writer's next sync fails.
    if (Status s = (*device)->Cut(); !s.ok()) {
      o.detail = "cut: " + s.message();
      return o;
    }
    o.writer_exit = writer.Wait(std::chrono::seconds(10));
    if (o.writer_exit < 0) o.writer_exit = writer.Kill(SIGKILL);
    o.detail = writer.err();
  }
  (void)(*device)->Unmount();
  // The disk after the cut: the image as the dead server left it, mounted on a loop of its own
  // (the filesystem's journal recovery runs at the mount, as after a reboot).
  platform::CrashLog none;
  Result<std::unique_ptr<platform::CrashState>> state = platform::CrashState::Build(
      p, (*scratch)->fd(), (*scratch)->work_path(), (*scratch)->work_path() + "/crash-image",
      (*device)->log_path(), none, platform::CrashStateSpec{}, fs);
  if (!state.ok() || !(*state)->outcome().mounted) {
    o.detail += state.ok() ? "the disk after the cut did not mount: " + (*state)->outcome().error
                           : "state: " + state.status().message();
    return o;
  }
  const std::string after = (*scratch)->shown_path() + "/crash-state";
  const std::string evidence = dir_.path() + "/evidence" + std::to_string(index) + ".json";
  CliRun v = Verify(after, o.run_id, "--save-evidence " + evidence);
  o.verify_exit = v.exit_code;
  o.detail += v.out + v.err;
  if (v.exit_code <= 1) {
    o.evidence = json::parse(testing_support::Slurp(evidence), nullptr, false);
  }
  (void)(*state)->Release();
  return o;
}

}  // namespace powercut_test
}  // namespace durprobe
