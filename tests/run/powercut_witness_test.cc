// The witness over loopback: a writer's HELLO and ACKs logged and answered with receipts, GET
// answered from what it holds, two writers at once, the log reloaded by a witness started again
// (its half-appended last line dropped), and a symlink as the log refused.
#include "run/powercut_witness.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>

#include "platform/tcp.h"
#include "probes/powercut_protocol.h"
#include "tests/test_dirs.h"

namespace durprobe::run::powercut_witness_test {

constexpr char kRunA[] = "00000000000000aa";
constexpr char kRunB[] = "00000000000000bb";
constexpr char kSecretA[] = " 0000000000000000000000000000000a";
constexpr char kSecretB[] = " 0000000000000000000000000000000b";

// A witness in a thread on 127.0.0.1, a port the kernel picks; stopped by its duration.
class WitnessThread {
 public:
  WitnessThread(const std::string& log, std::uint64_t duration_ns) {
    WitnessOptions o;
    o.listen = {"127.0.0.1", 0};
    o.log_path = log;
    o.duration_ns = duration_ns;
    thread_ = std::thread([this, o] {
      result_ = std::make_unique<Result<WitnessSummary>>(
          RunWitness(platform::Default(), o, [this](const WitnessSummary& s) {
            loaded_acks_ = s.acks_loaded;
            port_ = static_cast<int>(platform::ParseEndpoint(s.listening)->port);
          }));
      if (port_ == 0) port_ = -1;
    });
    while (port_ == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ~WitnessThread() { thread_.join(); }
  int port() const { return port_; }
  std::uint64_t loaded_acks() const { return loaded_acks_; }
  const Result<WitnessSummary>& Join() {
    thread_.join();
    thread_ = std::thread([] {});
    return *result_;
  }

 private:
  std::thread thread_;
  std::atomic<int> port_{0};
  std::atomic<std::uint64_t> loaded_acks_{0};
  std::unique_ptr<Result<WitnessSummary>> result_;
};

// A client connection: sends lines, reads lines back.
class Client {
 public:
  explicit Client(int port) {
    Result<platform::FileHandle> s = platform::TcpConnect(
        platform::Default(), {"127.0.0.1", static_cast<std::uint16_t>(port)}, 2'000'000'000);
    EXPECT_TRUE(s.ok()) << s.status().message();
    if (s.ok()) socket_ = std::move(*s);
  }
  void Send(const std::string& text) { ASSERT_TRUE(platform::TcpSend(socket_.get(), text).ok()); }
  // The next line, or "" after 5 s.
  std::string Line() {
    for (int i = 0; i < 100; ++i) {
      if (std::optional<std::string> line = lines_.Next()) return *line;
      const int fds[] = {socket_.get()};
      Result<std::vector<std::size_t>> ready = platform::WaitReadable(fds, 50'000'000);
      if (!ready.ok() || ready->empty()) continue;
      char buf[4096];
      Result<std::size_t> got = platform::TcpReceive(socket_.get(), buf, sizeof buf);
      if (!got.ok() || *got == 0) return "";
      lines_.Append(std::string_view(buf, *got));
    }
    return "";
  }
  // Reads lines until one starts with prefix; that line.
  std::string Until(const std::string& prefix) {
    for (std::string l = Line(); !l.empty(); l = Line()) {
      if (l.starts_with(prefix)) return l;
    }
    return "";
  }

 private:
  platform::FileHandle socket_;
  probes::LineBuffer lines_;
};

TEST(PowercutWitnessTest, LogsAcksFromTwoWritersAndAnswersGetAfterARestart) {
  testing_support::TempDir dir;
  const std::string log = dir.path() + "/witness.log";
  {
    WitnessThread w(log, 1'500'000'000);
    ASSERT_GT(w.port(), 0);
    Client a(w.port()), b(w.port());
    a.Send(std::string("HELLO host-a ") + kRunA + " file:fdatasync 4096 16" + kSecretA + "\n");
    b.Send(std::string("HELLO host-b ") + kRunB + " sqlite:WAL:FULL 512 8" + kSecretB + "\n");
    EXPECT_EQ(a.Line(), std::string("WELCOME ") + kRunA);
    EXPECT_EQ(b.Line(), std::string("WELCOME ") + kRunB);
    a.Send("ACK 0 0000000000000001\nACK 1 0000000000000002\n");
    b.Send("ACK 0 0000000000000003\n");
    EXPECT_EQ(a.Until("RCPT 1"), "RCPT 1");
    EXPECT_EQ(b.Line(), "RCPT 0");
    Client v(w.port());
    v.Send(std::string("GET ") + kRunA + kSecretA + "\n");
    EXPECT_EQ(v.Line(), std::string("RUN ") + kRunA + " host-a file:fdatasync 4096 16 2");
    EXPECT_EQ(v.Line(), "A 0 0000000000000001");
    EXPECT_EQ(v.Line(), "A 1 0000000000000002");
    EXPECT_EQ(v.Line(), "END");
    // A line the protocol does not know ends that connection with ERR.
    Client bad(w.port());
    bad.Send("ACK 5 0000000000000001\n");
    EXPECT_TRUE(bad.Line().starts_with("ERR ")) << "an ACK before HELLO";
    const Result<WitnessSummary>& done = w.Join();
    ASSERT_TRUE(done.ok()) << done.status().message();
    EXPECT_EQ(done->acks_logged, 3u);
  }
  // The witness killed while appending leaves half a line: never counted, dropped on reload.
  {
    platform::OpenFlags append;
    Result<platform::FileHandle> f = platform::Default().Open(log, append);
    ASSERT_TRUE(f.ok());
    Result<std::uint64_t> size = platform::Default().FileSize(log);
    ASSERT_TRUE(size.ok());
    const std::string half = std::string("A ") + kRunA + " 2 00000";
    ASSERT_TRUE(platform::Default().PWrite(f->get(), half.data(), half.size(), *size).ok());
  }
  WitnessThread again(log, 800'000'000);
  ASSERT_GT(again.port(), 0);
  EXPECT_EQ(again.loaded_acks(), 3u);
  Client v(again.port());
  v.Send(std::string("GET ") + kRunB + kSecretB + "\nGET ffffffffffffffff" + kSecretB + "\n");
  EXPECT_EQ(v.Line(), std::string("RUN ") + kRunB + " host-b sqlite:WAL:FULL 512 8 1");
  EXPECT_EQ(v.Until("UNKNOWN"), "UNKNOWN ffffffffffffffff");
  ASSERT_TRUE(again.Join().ok());
}

TEST(PowercutWitnessTest, ASymlinkAsTheLogIsRefused) {
  testing_support::TempDir dir;
  const std::string target = dir.path() + "/elsewhere";
  const std::string log = dir.path() + "/witness.log";
  ASSERT_TRUE(platform::Default().WriteTextFile(target, "").ok());
  ASSERT_EQ(::symlink(target.c_str(), log.c_str()), 0);
  WitnessOptions o;
  o.listen = {"127.0.0.1", 0};
  o.log_path = log;
  o.duration_ns = 1;
  Result<WitnessSummary> r = RunWitness(platform::Default(), o, [](const WitnessSummary&) {});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("witness.log"), std::string::npos) << r.status().message();
}

}  // namespace durprobe::run::powercut_witness_test
