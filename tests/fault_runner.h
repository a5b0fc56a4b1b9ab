// Helpers for the hostile-conditions tests (tests/integration/): the durprobe binary run with
// the LD_PRELOAD fault layer (tests/faultlib/faultlib.c), and the checks every such run ends
// with: no scratch left, no process left, the target's files unchanged.
#pragma once

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <string>
#include <vector>

#include "platform/scratch.h"
#include "tests/cli_runner.h"

namespace durprobe::testing_support {

// env is "NAME=value ..." for the fault layer (DURPROBE_FAULT_*); args as for RunDurprobe.
inline CliRun RunFaulted(const std::string& env, const std::string& args) {
  return RunShell("env LD_PRELOAD=" DURPROBE_FAULTLIB " " + env + " " DURPROBE_BINARY " " + args);
}

// Names in dir that start with the scratch prefix.
inline std::vector<std::string> ScratchLeft(const std::string& dir) {
  std::vector<std::string> out;
  Result<std::vector<std::string>> names = platform::Default().ListDirectory(dir);
  if (!names.ok()) return out;
  for (const std::string& n : *names) {
    if (n.rfind(std::string(platform::kScratchPrefix), 0) == 0) out.push_back(n);
  }
  return out;
}

// Pids of processes whose command line mentions needle (a test's unique directory): a
// durprobe, or a forked workload child, still running after its run ended.
inline std::vector<int> ProcessesMentioning(const std::string& needle) {
  std::vector<int> pids;
  DIR* proc = ::opendir("/proc");
  if (proc == nullptr) return pids;
  while (dirent* e = ::readdir(proc)) {
    int pid = std::atoi(e->d_name);
    if (pid <= 0 || pid == ::getpid()) continue;
    std::string cmdline = Slurp("/proc/" + std::string(e->d_name) + "/cmdline");
    for (char& c : cmdline) c = c == '\0' ? ' ' : c;
    if (cmdline.find(needle) != std::string::npos &&
        cmdline.find(DURPROBE_BINARY) != std::string::npos) {
      pids.push_back(pid);
    }
  }
  ::closedir(proc);
  return pids;
}

// Every entry under dir (recursively, never following symlinks) with what must not change:
// type, mode, size, mtime, a hash of the contents, the link target.
inline std::map<std::string, std::string> Snapshot(const std::string& dir) {
  std::map<std::string, std::string> out;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) return out;
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    std::string path = dir + "/" + name;
    struct stat st;
    if (::lstat(path.c_str(), &st) != 0) continue;
    std::string facts = std::to_string(st.st_mode) + " " + std::to_string(st.st_size) + " " +
                        std::to_string(st.st_mtim.tv_sec) + "." +
                        std::to_string(st.st_mtim.tv_nsec);
    if (S_ISLNK(st.st_mode)) {
      char target[4096];
      ssize_t n = ::readlink(path.c_str(), target, sizeof target - 1);
      facts += " -> " + std::string(target, n > 0 ? static_cast<std::size_t>(n) : 0);
    } else if (S_ISREG(st.st_mode)) {
      std::string content = Slurp(path);
      facts += " #" + std::to_string(std::hash<std::string>{}(content));
    } else if (S_ISDIR(st.st_mode)) {
      for (auto& [sub, sub_facts] : Snapshot(path)) out[name + "/" + sub] = sub_facts;
    }
    out[name] = facts;
  }
  ::closedir(d);
  return out;
}

}  // namespace durprobe::testing_support
