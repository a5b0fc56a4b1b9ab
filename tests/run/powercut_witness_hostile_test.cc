// The witness against hostile clients on real sockets (issue 53's cases): a flood of acks and
// GET lines keeps every connection's queue bounded, a client that never reads holds up no one,
// SIGTERM stops it whatever a client does, idle half-lines under a low descriptor limit leave
// room for a writer, accept pauses when descriptors run out, and a second connection can neither
// take over nor disturb a run. What is asserted is what was queued, answered and counted; the
// waits are only the tests' own time limits.
#include <arpa/inet.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <vector>

#include "run/witness_client.h"
#include "tests/run/witness_harness.h"
#include "tests/test_dirs.h"

namespace durprobe::run::powercut_witness_hostile_test {
namespace {

using witness_harness::Client;
using witness_harness::LoopbackOptions;
using witness_harness::WitnessChild;
using witness_harness::WitnessThread;

const std::string kRun = "00000000000000aa";
const std::string kSecret = "0000000000000000000000000000000a";
const std::string kOtherRun = "00000000000000bb";
const std::string kOtherSecret = "0000000000000000000000000000000b";

std::string Hello(const std::string& run, const std::string& secret, int slots = 16) {
  return fmt::format("HELLO host {} file:fdatasync 4096 {} {}\n", run, slots, secret);
}

std::string Acks(std::uint64_t from, std::uint64_t n) {
  std::string out;
  for (std::uint64_t i = from; i < from + n; ++i) out += fmt::format("ACK {} {:016x}\n", i, i + 1);
  return out;
}

// A writer of kRun that had n acks logged; left connected.
std::unique_ptr<Client> Writer(int port, std::uint64_t n) {
  auto c = std::make_unique<Client>(port);
  EXPECT_TRUE(c->Send(Hello(kRun, kSecret)));
  EXPECT_EQ(c->Line(), "WELCOME " + kRun);
  EXPECT_TRUE(c->Send(Acks(0, n)));
  EXPECT_EQ(c->Until(fmt::format("RCPT {}", n - 1)), fmt::format("RCPT {}", n - 1));
  return c;
}

// An honest writer of another run and an honest verifier of kRun, served in full.
void ExpectHonestClientsServed(int port, std::uint64_t acks) {
  Client writer(port);
  ASSERT_TRUE(writer.Send(Hello(kOtherRun, kOtherSecret)));
  EXPECT_EQ(writer.Line(), "WELCOME " + kOtherRun);
  ASSERT_TRUE(writer.Send(Acks(0, 1)));
  EXPECT_EQ(writer.Line(), "RCPT 0");
  Client verifier(port);
  ASSERT_TRUE(verifier.Send("GET " + kRun + " " + kSecret + "\n"));
  EXPECT_EQ(verifier.Line(), fmt::format("RUN {} host file:fdatasync 4096 16 {}", kRun, acks));
  std::uint64_t lines = 0;
  std::string last;
  for (std::string l = verifier.Line(); l.starts_with("A "); l = verifier.Line()) {
    ++lines;
    last = l;
  }
  EXPECT_EQ(lines, acks);
  EXPECT_EQ(last, fmt::format("A {} {:016x}", acks - 1, acks));
}

// Sends text on its own thread (the witness stops reading a client that does not read), so the
// test goes on; the send ends when the witness closes the connection.
class Flood {
 public:
  Flood(int port, std::string text) : client_(port) {
    // A small receive buffer, locked (no autotuning): the answers pile up at the witness, not in
    // this side's kernel.
    const int small = 4096;
    ::setsockopt(client_.fd(), SOL_SOCKET, SO_RCVBUF, &small, sizeof small);
    thread_ = std::thread([this, text] { (void)client_.Send(text); });
  }
  ~Flood() { thread_.join(); }
  Client& client() { return client_; }

 private:
  Client client_;
  std::thread thread_;
};

std::string Gets(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += "GET " + kRun + " " + kSecret + "\n";
  return out;
}

TEST(PowercutWitnessHostileTest, FiftyThousandAcksAndAFloodOfGetsKeepEveryQueueBounded) {
  testing_support::TempDir dir;
  WitnessThread w(LoopbackOptions(dir.path() + "/witness.log"));
  ASSERT_GT(w.port(), 0);
  std::unique_ptr<Client> flooder = Writer(w.port(), 50'000);
  // 1,200 GETs of the 50,000 acks (63 KB of lines; 1.4 GB of answers if made at once), on a
  // connection that never reads.
  Flood gets(w.port(), Gets(1200));
  ExpectHonestClientsServed(w.port(), 50'000);
  const Result<WitnessSummary>& done = w.Stop();
  ASSERT_TRUE(done.ok()) << done.status().message();
  EXPECT_EQ(done->acks_logged, 50'001u);
  EXPECT_GT(done->most_queued, kWitnessHighWater) << "the flood was answered up to the mark";
  EXPECT_LE(done->most_queued, kWitnessMaxQueuedBytes);
}

TEST(PowercutWitnessHostileTest, AClientThatNeverReadsHoldsUpNoOne) {
  testing_support::TempDir dir;
  WitnessThread w(LoopbackOptions(dir.path() + "/witness.log"));
  ASSERT_GT(w.port(), 0);
  std::unique_ptr<Client> writer = Writer(w.port(), 50'000);
  // 20 MB of answers each (1.2 MB a GET), more than the kernel buffers between them and the
  // witness take.
  Flood stuck(w.port(), Gets(kWitnessMaxGets * 4));
  Flood stuck_too(w.port(), Gets(kWitnessMaxGets + 1));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  // Both stuck readers hold their answers queued while the honest pair is served.
  ExpectHonestClientsServed(w.port(), 50'000);
  ASSERT_TRUE(writer->Send(Acks(50'000, 1)));
  EXPECT_EQ(writer->Line(), "RCPT 50000") << "the first writer still served";
  ASSERT_TRUE(w.Stop().ok());
}

TEST(PowercutWitnessHostileTest, SigtermStopsItWhileAClientIsStuck) {
  testing_support::TempDir dir;
  WitnessChild w(LoopbackOptions(dir.path() + "/witness.log"), 0);
  ASSERT_GT(w.port(), 0);
  std::unique_ptr<Client> writer = Writer(w.port(), 50'000);
  Flood stuck(w.port(), Gets(200));
  Client half(w.port());
  ASSERT_TRUE(half.Send("GET " + kRun));  // half a line, never ended
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  // 30 s is the test's limit, not a measured claim: the witness polls at most 200 ms at a time.
  EXPECT_TRUE(w.Terminate(std::chrono::seconds(30))) << "the witness did not return on SIGTERM";
  EXPECT_TRUE(w.report().ok) << "RunWitness did not return its summary";
}

// A non-blocking connect to 127.0.0.1:port, then half a line sent once it is connected; the
// descriptor (the caller closes it), or -1.
int HalfLineConnection(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  (void)::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  return fd;
}

void SendHalfLines(const std::vector<int>& fds) {
  for (int fd : fds) (void)::send(fd, "HELLO half", 10, MSG_NOSIGNAL | MSG_DONTWAIT);
}

TEST(PowercutWitnessHostileTest, IdleHalfLinesUnderALowDescriptorLimitLeaveRoomForAWriter) {
  testing_support::TempDir dir;
  WitnessOptions o = LoopbackOptions(dir.path() + "/witness.log");
  o.idle_timeout_ns = 600'000'000'000;  // the idle timeout is not what makes room here
  o.evict_idle_ns = 200'000'000;
  WitnessChild w(o, 64);
  ASSERT_GT(w.port(), 0);
  std::vector<int> fds;
  for (int i = 0; i < 200; ++i) fds.push_back(HalfLineConnection(w.port()));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  SendHalfLines(fds);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  Client writer(w.port());
  ASSERT_TRUE(writer.Send(Hello(kRun, kSecret)));
  EXPECT_EQ(writer.Line(), "WELCOME " + kRun);
  EXPECT_TRUE(w.Terminate(std::chrono::seconds(30)));
  EXPECT_EQ(w.report().client_cap, 64u - kWitnessReservedDescriptors);
  EXPECT_GE(w.report().evicted, 1u);
  EXPECT_EQ(w.report().accept_pauses, 0u) << "the cap kept accept from running out";
  for (int fd : fds) ::close(fd);
}

TEST(PowercutWitnessHostileTest, WhenAcceptRunsOutOfDescriptorsItPausesInsteadOfSpinning) {
  testing_support::TempDir dir;
  WitnessOptions o = LoopbackOptions(dir.path() + "/witness.log");
  o.max_clients = 1000;               // past what RLIMIT_NOFILE allows: accept meets EMFILE
  o.idle_timeout_ns = 1'500'000'000;  // the idle ones go, and make room
  WitnessChild w(o, 32);
  ASSERT_GT(w.port(), 0);
  const auto start = std::chrono::steady_clock::now();
  std::vector<int> fds;
  for (int i = 0; i < 60; ++i) fds.push_back(HalfLineConnection(w.port()));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  SendHalfLines(fds);
  Client writer(w.port());
  ASSERT_TRUE(writer.Send(Hello(kRun, kSecret)));
  EXPECT_EQ(writer.Until("WELCOME"), "WELCOME " + kRun);
  EXPECT_TRUE(w.Terminate(std::chrono::seconds(30)));
  const auto seconds =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start)
          .count();
  EXPECT_GE(w.report().accept_pauses, 1u);
  // Each pause lasts a second: more pauses than seconds would be accept retried in a loop.
  EXPECT_LE(w.report().accept_pauses, static_cast<std::uint64_t>(seconds) + 1);
  EXPECT_GE(w.report().idle_closed, 1u);
  for (int fd : fds) ::close(fd);
}

TEST(PowercutWitnessHostileTest, ASecondConnectionCanNeitherTakeOverNorDisturbARun) {
  testing_support::TempDir dir;
  const std::string log = dir.path() + "/witness.log";
  {
    WitnessThread w(LoopbackOptions(log));
    std::unique_ptr<Client> writer = Writer(w.port(), 5);
    Client other_slots(w.port());
    ASSERT_TRUE(other_slots.Send(Hello(kRun, kOtherSecret, 9)));
    EXPECT_TRUE(other_slots.Line().starts_with("ERR ")) << "another secret";
    EXPECT_TRUE(other_slots.Closed());
    Client right_secret(w.port());
    ASSERT_TRUE(right_secret.Send(Hello(kRun, kSecret)));
    EXPECT_EQ(right_secret.Line(), "ERR run " + kRun + " is held by another connection");
    Client ahead(w.port());
    ASSERT_TRUE(ahead.Send("ACK 1000000 0000000000000001\n"));
    EXPECT_EQ(ahead.Line(), "ERR ACK before HELLO");
    Client reader(w.port());
    ASSERT_TRUE(reader.Send("GET " + kRun + " " + kOtherSecret + "\n"));
    EXPECT_EQ(reader.Line(), "UNKNOWN " + kRun) << "a wrong secret learns nothing";
    // The writer itself cannot go back either.
    ASSERT_TRUE(writer->Send(Acks(3, 1)));
    EXPECT_TRUE(writer->Until("ERR").starts_with("ERR ACK 3 is not above the run's last, 4"));
    writer.reset();
    // Once its connection is gone, the writer comes back with its secret and goes on.
    Client back(w.port());
    ASSERT_TRUE(back.Send(Hello(kRun, kSecret) + Acks(5, 1)));
    EXPECT_EQ(back.Line(), "WELCOME " + kRun);
    EXPECT_EQ(back.Line(), "RCPT 5");
    ASSERT_TRUE(w.Stop().ok());
  }
  WitnessThread again(LoopbackOptions(log));
  EXPECT_EQ(again.loaded_acks(), 6u);
  Client verifier(again.port());
  ASSERT_TRUE(verifier.Send("GET " + kRun + " " + kSecret + "\n"));
  EXPECT_EQ(verifier.Line(), fmt::format("RUN {} host file:fdatasync 4096 16 6", kRun));
  for (int i = 0; i < 6; ++i) EXPECT_EQ(verifier.Line(), fmt::format("A {} {:016x}", i, i + 1));
  EXPECT_EQ(verifier.Line(), "END");
  ASSERT_TRUE(again.Stop().ok());
}

}  // namespace
}  // namespace durprobe::run::powercut_witness_hostile_test
