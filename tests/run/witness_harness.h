// The power-cut witness for socket-level tests: in a thread of the test (stopped as SIGTERM
// would, through the interrupt flag) or in a forked child (a descriptor limit of its own, a real
// SIGTERM), and a client on 127.0.0.1 that sends lines and reads them back.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "platform/interrupt.h"
#include "platform/tcp.h"
#include "probes/powercut_protocol.h"
#include "run/powercut_witness.h"

namespace durprobe::run::witness_harness {

inline WitnessOptions LoopbackOptions(const std::string& log) {
  WitnessOptions o;
  o.listen = {"127.0.0.1", 0};
  o.log_path = log;
  return o;
}

// A witness in a thread; Stop() raises the interrupt flag (what SIGINT/SIGTERM set), waits for
// it and clears the flag. Each ctest case runs in a process of its own, so the flag is this
// test's.
class WitnessThread {
 public:
  WitnessThread(const WitnessOptions& o, platform::Platform& platform = platform::Default()) {
    thread_ = std::thread([this, o, &platform] {
      result_ = std::make_unique<Result<WitnessSummary>>(
          RunWitness(platform, o, [this](const WitnessSummary& s) {
            loaded_acks_ = s.acks_loaded;
            port_ = static_cast<int>(platform::ParseEndpoint(s.listening)->port);
          }));
      if (port_ == 0) port_ = -1;
    });
    while (port_ == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ~WitnessThread() {
    if (thread_.joinable()) Stop();
  }
  int port() const { return port_; }
  std::uint64_t loaded_acks() const { return loaded_acks_; }
  const Result<WitnessSummary>& Stop() {
    platform::SetInterruptSignalForTest(SIGTERM);
    thread_.join();
    platform::SetInterruptSignalForTest(0);
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
        platform::Default(), {"127.0.0.1", static_cast<std::uint16_t>(port)}, 5'000'000'000);
    EXPECT_TRUE(s.ok()) << s.status().message();
    if (s.ok()) socket_ = std::move(*s);
  }
  int fd() const { return socket_.get(); }
  bool Send(const std::string& text) { return platform::TcpSend(socket_.get(), text).ok(); }
  // The next line; "" after 10 s or when the witness closed the connection.
  std::string Line() {
    for (int i = 0; i < 200; ++i) {
      if (std::optional<std::string> line = lines_.Next()) return *line;
      const int fds[] = {socket_.get()};
      Result<std::vector<std::size_t>> ready = platform::WaitReadable(fds, 50'000'000);
      if (!ready.ok() || ready->empty()) continue;
      char buf[65536];
      Result<std::size_t> got = platform::TcpReceive(socket_.get(), buf, sizeof buf);
      if (!got.ok() || *got == 0) return "";
      lines_.Append(std::string_view(buf, *got));
    }
    return "";
  }
  // Reads lines until one starts with prefix; that line ("" if none came).
  std::string Until(const std::string& prefix) {
    for (std::string l = Line(); !l.empty(); l = Line()) {
      if (l.starts_with(prefix)) return l;
    }
    return "";
  }
  // Whether the witness closed the connection (end of stream within 10 s).
  bool Closed() {
    for (std::string l = Line(); !l.empty(); l = Line()) {
    }
    char c;
    Result<std::size_t> got = platform::TcpReceive(socket_.get(), &c, 1);
    return !got.ok() || *got == 0;
  }

 private:
  platform::FileHandle socket_;
  probes::LineBuffer lines_;
};

// What a witness in a child process said: its port, then at its end the summary's counts.
struct ChildReport {
  int port = 0;
  std::uint64_t evicted = 0, accept_pauses = 0, idle_closed = 0, client_cap = 0;
  bool ok = false;
};

// A witness in a forked child with its own RLIMIT_NOFILE (0: as inherited) and the real
// interrupt handlers, so SIGTERM is a real signal. It writes its port, then its summary, to a
// pipe.
class WitnessChild {
 public:
  WitnessChild(const WitnessOptions& o, rlim_t nofile) {
    int p[2];
    if (::pipe(p) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(p[0]);
      if (nofile > 0) {
        rlimit l{nofile, nofile};
        ::setrlimit(RLIMIT_NOFILE, &l);
      }
      platform::InstallInterruptHandlers();
      Result<WitnessSummary> r = RunWitness(platform::Default(), o, [&](const WitnessSummary& s) {
        const std::string port = std::to_string(platform::ParseEndpoint(s.listening)->port) + "\n";
        (void)!::write(p[1], port.data(), port.size());
      });
      const std::string end =
          r.ok()
              ? "ok " + std::to_string(r->evicted) + " " + std::to_string(r->accept_pauses) + " " +
                    std::to_string(r->idle_closed) + " " + std::to_string(r->client_cap) + "\n"
              : "error " + r.status().message() + "\n";
      (void)!::write(p[1], end.data(), end.size());
      ::_exit(0);
    }
    ::close(p[1]);
    read_ = p[0];
    const std::string port = ReadLine();
    report_.port = port.empty() ? -1 : std::stoi(port);
  }
  ~WitnessChild() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (read_ >= 0) ::close(read_);
  }
  int port() const { return report_.port; }
  // Sends SIGTERM and waits up to limit for the child to return from RunWitness; false if it
  // did not (it is killed then).
  bool Terminate(std::chrono::seconds limit) {
    ::kill(pid_, SIGTERM);
    const auto until = std::chrono::steady_clock::now() + limit;
    int status = 0;
    while (std::chrono::steady_clock::now() < until) {
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        std::string end = ReadLine();
        report_.ok = end.starts_with("ok ");
        if (report_.ok) {
          std::sscanf(end.c_str(), "ok %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
                      &report_.evicted, &report_.accept_pauses, &report_.idle_closed,
                      &report_.client_cap);
        }
        return WIFEXITED(status) && WEXITSTATUS(status) == 0;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }
  const ChildReport& report() const { return report_; }

 private:
  std::string ReadLine() {
    std::string line;
    char c;
    while (::read(read_, &c, 1) == 1 && c != '\n') line += c;
    return line;
  }
  pid_t pid_ = -1;
  int read_ = -1;
  ChildReport report_;
};

}  // namespace durprobe::run::witness_harness
