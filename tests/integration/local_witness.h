// A power-cut witness on 127.0.0.1 (a port the kernel picks) for the loopback tests, stopped by
// the destructor.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>

#include "tests/cli_runner.h"

namespace durprobe::testing_support {

class LocalWitness {
 public:
  explicit LocalWitness(const std::string& dir) : err_(dir + "/witness.err") {
    const std::string command = std::string("exec ") + DURPROBE_BINARY +
                                " powercut witness --listen 127.0.0.1:0 --log " + dir +
                                "/witness.log --for 120s 2>" + err_;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
      ::_exit(127);
    }
    for (int i = 0; i < 500 && address_.empty(); ++i) {
      std::smatch m;
      const std::string err = Slurp(err_);
      if (std::regex_search(err, m, std::regex("listening on (127\\.0\\.0\\.1:[0-9]+)"))) {
        address_ = m[1];
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  ~LocalWitness() {
    if (pid_ > 0) {
      ::kill(pid_, SIGTERM);
      int status = 0;
      ::waitpid(pid_, &status, 0);
    }
  }
  LocalWitness(const LocalWitness&) = delete;
  LocalWitness& operator=(const LocalWitness&) = delete;
  const std::string& address() const { return address_; }

 private:
  std::string err_;
  std::string address_;
  pid_t pid_ = -1;
};

}  // namespace durprobe::testing_support
