// Acceptance: each probe makes the system calls its name says, as many times as it reports.
// Runs `durprobe probe` for one primitive and pattern under strace -y (file names beside each
// descriptor) and checks, for every operation the report counts (warm-up included): the sync
// call it names, on the file it names, with the open flags it names, and no other sync on that
// file beyond setup's. A swap of fdatasync for fsync, or a lost O_DSYNC / O_SYNC / O_DIRECT
// flag, fails here.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using testing_support::MakeTempDir;
using testing_support::RunShell;
using testing_support::Slurp;

constexpr int kWriteSize = 4096;
constexpr int kWritesPerFile = (1 << 20) / kWriteSize;  // --file-size 1MiB

// One traced system call: its name, the file it acts on (the opened path for openat, the
// descriptor's path otherwise), the open flags of that descriptor and the bytes it wrote.
struct Call {
  std::string name;
  std::string file;
  std::string flags;
  long bytes = -1;   // pwrite64's count, sync_file_range's nbytes
  long offset = -1;  // pwrite64's and sync_file_range's offset
  bool ok = false;
};

bool EndsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The last component: an open names the file by the scratch's descriptor path
// (/proc/self/fd/N/probe.dat), strace -y names the descriptor by the directory's real path.
std::string BaseName(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

std::vector<Call> ParseTrace(const std::string& trace) {
  static const std::regex kLine(R"re(^\d+ +(\w+)\((.*)\) += (-?\d+).*$)re");
  // The directory argument (the working directory's token, or a descriptor) is not read.
  static const std::regex kOpen(R"re(^[A-Z_0-9]+<[^>]*>, "([^"]*)", ([A-Z_|]+))re");
  static const std::regex kFd(R"re(^(\d+)<([^>]*)>)re");
  static const std::regex kWrite(R"re(, (\d+), (\d+)$)re");
  static const std::regex kRange(R"re(^\d+<[^>]*>, (\d+), (\d+), )re");
  std::map<std::string, std::string> fd_flags;  // "fd:path" -> flags it was opened with
  std::vector<Call> calls;
  std::istringstream in(trace);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (!std::regex_match(line, m, kLine)) continue;  // unfinished / resumed halves, signals
    Call c;
    c.name = m[1];
    std::string args = m[2];
    long ret = std::stol(m[3]);
    c.ok = ret >= 0;
    std::smatch a;
    if (c.name == "openat" && std::regex_search(args, a, kOpen)) {
      c.file = a[1];
      c.flags = a[2];
      if (c.ok) fd_flags[std::to_string(ret) + ":" + BaseName(c.file)] = c.flags;
    } else if (std::regex_search(args, a, kFd)) {
      c.file = a[2];
      c.flags = fd_flags[std::string(a[1]) + ":" + BaseName(c.file)];
      if (c.name == "pwrite64" && std::regex_search(args, a, kWrite)) {
        c.bytes = std::stol(a[1]);
        c.offset = std::stol(a[2]);
      } else if (c.name == "sync_file_range" && std::regex_search(args, a, kRange)) {
        c.offset = std::stol(a[1]);
        c.bytes = std::stol(a[2]);
      }
    }
    calls.push_back(c);
  }
  return calls;
}

// How many calls named name act on a file whose path ends with file and pass keep.
template <typename Keep>
// The probe's own calls: the reference probe sampled around it works in a directory of its own
// (run/reference.h kReferenceDir) and is left out.
long Count(const std::vector<Call>& calls, const std::string& name, const std::string& file,
           Keep keep) {
  long n = 0;
  for (const Call& c : calls) {
    bool reference = c.file.find("/reference/") != std::string::npos;
    n += c.name == name && EndsWith(c.file, file) && !reference && keep(c);
  }
  return n;
}
long Count(const std::vector<Call>& calls, const std::string& name, const std::string& file) {
  return Count(calls, name, file, [](const Call&) { return true; });
}
bool HasFlag(const Call& c, const std::string& flag) {
  return ("|" + c.flags + "|").find("|" + flag + "|") != std::string::npos;
}

struct Case {
  const char* primitive;
  const char* pattern;
};
void PrintTo(const Case& c, std::ostream* os) { *os << c.primitive << " " << c.pattern; }

class ProbeStraceTest : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    if (RunShell("command -v strace").exit_code != 0) {
      GTEST_SKIP() << "strace is not installed (apt-get install strace)";
    }
    if (RunShell("strace -qq -e trace=none true").exit_code != 0) {
      GTEST_SKIP() << "strace cannot trace here (ptrace not permitted in this container?)";
    }
    dir_ = MakeTempDir("probe-strace");
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  // Runs the probe under strace; fills calls_ and the reported counts. False when it did not run.
  bool Trace(const Case& c) {
    std::string trace = dir_ + "/trace", json_path = dir_ + "/report.json";
    std::string cmd =
        "strace -f -qq -y -e trace=openat,pwrite64,fsync,fdatasync,sync_file_range,"
        "rename,renameat,renameat2 -o " +
        trace + " " DURPROBE_BINARY " probe " + dir_ + " --primitives " + c.primitive +
        " --patterns " + c.pattern + " --sizes " + std::to_string(kWriteSize) +
        " --file-size 1MiB --budget 300ms --quiet --json " + json_path;
    testing_support::CliRun r = RunShell(cmd);
    EXPECT_EQ(r.exit_code, 0) << cmd << "\n" << r.err;
    if (r.exit_code != 0) return false;
    nlohmann::json probes = nlohmann::json::parse(Slurp(json_path))["targets"][0]["probes"];
    EXPECT_EQ(probes.size(), 1u) << probes.dump();
    if (probes.size() != 1) return false;
    probe_ = probes[0];
    ops_ = probe_.value("ops", 0L) + probe_.value("warmup_ops", 0L);  // none when unsupported
    // The flush counting's control: the same operations without the sync (probes/flush_tally.h).
    if (probe_.contains("device_flushes")) {
      controls_ = probe_["device_flushes"].value("control_ops", 0L);
    }
    calls_ = ParseTrace(Slurp(trace));
    return true;
  }

  // "status" is the report's key (docs/json.md): required, so a renamed key fails the test.
  bool Unsupported() const { return probe_.at("status") == "unsupported"; }

  std::string dir_;
  nlohmann::json probe_;
  long ops_ = 0;       // every operation run, warm-up included: each makes its calls
  long controls_ = 0;  // the control's operations: the same writes, creates or renames, no sync
  std::vector<Call> calls_;
};

// write + sync call: fsync, fdatasync or sync_file_range on probe.dat, once per operation.
TEST_P(ProbeStraceTest, MakesTheCallsItNames) {
  const Case c = GetParam();
  ASSERT_TRUE(Trace(c));
  const std::string primitive = c.primitive, pattern = c.pattern;
  if (primitive == "odirect_dsync" && Unsupported()) {
    // The filesystem refused O_DIRECT: the refusal must come from an open or write that asked.
    EXPECT_GE(
        Count(calls_, "openat", "/probe.dat", [](const Call& x) { return HasFlag(x, "O_DIRECT"); }),
        1);
    return;
  }
  ASSERT_EQ(probe_.at("status"), "ok") << probe_.dump();
  ASSERT_GT(ops_, 0);
  SCOPED_TRACE(primitive + " " + pattern + ", " + std::to_string(ops_) + " operations");

  if (primitive == "dir_fsync") {
    // Setup syncs the new directory once for create; rename starts from one created file.
    long setup_syncs = pattern == "create" ? 1 : 0;
    EXPECT_EQ(Count(calls_, "fsync", "/dir_probe"), ops_ + setup_syncs);
    EXPECT_EQ(Count(calls_, "fdatasync", "/dir_probe"), 0);
    auto exclusive = [](const Call& x) { return HasFlag(x, "O_CREAT") && HasFlag(x, "O_EXCL"); };
    long creates = Count(calls_, "openat", "", [&](const Call& x) {
      return exclusive(x) && x.file.find("/dir_probe/f") != std::string::npos;
    });
    // Only the probe's own: the report file is written by a rename too.
    // One more: the JSON report is written to a temporary file and renamed into place.
    long renames = Count(calls_, "rename", "") + Count(calls_, "renameat", "") +
                   Count(calls_, "renameat2", "") - 1;
    EXPECT_EQ(creates, pattern == "create" ? ops_ + controls_ : 1);
    EXPECT_EQ(renames, pattern == "rename" ? ops_ + controls_ : 0);
    return;
  }

  const bool cross = pattern == "write_sync_close" || pattern == "write_close_sync";
  const std::string file = cross ? "/cross.dat" : "/probe.dat";
  // Setup's own fsyncs: the preallocated overwrite file (also the cross-descriptor file), and
  // each fresh preallocated file's reservation.
  long setup_fsyncs = 0;
  if (pattern == "overwrite" || cross) setup_fsyncs = 1;
  // The control's writes advance through the same file, so they fill it too.
  if (pattern == "preallocated") setup_fsyncs = 1 + (ops_ + controls_) / kWritesPerFile;

  long timed_writes =
      Count(calls_, "pwrite64", file, [](const Call& x) { return x.bytes == kWriteSize; });
  EXPECT_EQ(timed_writes, ops_ + controls_);

  // The primitive's own call once per operation; no other sync call beyond setup's fsyncs.
  for (const std::string call : {"fsync", "fdatasync", "sync_file_range"}) {
    long expected = (call == "fsync" ? setup_fsyncs : 0) + (call == primitive ? ops_ : 0);
    EXPECT_EQ(Count(calls_, call, file), expected) << call;
  }

  // sync_file_range flushes the range the operation wrote, not offset 0 or the whole file.
  if (primitive == "sync_file_range") {
    const Call* last_write = nullptr;
    long checked = 0;
    for (const Call& x : calls_) {
      if (!EndsWith(x.file, file)) continue;
      if (x.name == "pwrite64" && x.bytes == kWriteSize) last_write = &x;
      if (x.name != "sync_file_range") continue;
      ASSERT_NE(last_write, nullptr) << "a sync_file_range before any timed write";
      EXPECT_EQ(x.offset, last_write->offset);
      EXPECT_EQ(x.bytes, last_write->bytes);
      ++checked;
    }
    EXPECT_EQ(checked, ops_);
  }

  // The flags of the descriptor every timed write went through.
  auto writes_with = [&](auto keep) {
    return Count(calls_, "pwrite64", file,
                 [&](const Call& x) { return x.bytes == kWriteSize && keep(x); });
  };
  if (primitive == "odsync") {
    EXPECT_EQ(writes_with([](const Call& x) { return HasFlag(x, "O_DSYNC"); }), ops_);
    EXPECT_EQ(writes_with([](const Call& x) { return HasFlag(x, "O_SYNC"); }), 0);
  } else if (primitive == "osync") {
    EXPECT_EQ(writes_with([](const Call& x) { return HasFlag(x, "O_SYNC"); }), ops_);
  } else if (primitive == "odirect_dsync") {
    EXPECT_EQ(
        writes_with([](const Call& x) { return HasFlag(x, "O_DIRECT") && HasFlag(x, "O_DSYNC"); }),
        ops_);
  } else {
    EXPECT_EQ(writes_with([](const Call& x) {
                return HasFlag(x, "O_DSYNC") || HasFlag(x, "O_SYNC") || HasFlag(x, "O_DIRECT");
              }),
              0);
  }
  if (cross) {
    // write_sync_close opens once per operation; write_close_sync twice (the sync goes to a
    // second descriptor); setup's preallocation opens once more.
    long per_op = pattern == "write_close_sync" ? 2 : 1;
    // The control opens once per operation (open, write, close).
    EXPECT_EQ(Count(calls_, "openat", file), 1 + per_op * ops_ + controls_);
  }
}

INSTANTIATE_TEST_SUITE_P(
    EveryPrimitiveAndPattern, ProbeStraceTest,
    ::testing::Values(Case{"fsync", "overwrite"}, Case{"fsync", "append"},
                      Case{"fsync", "preallocated"}, Case{"fsync", "write_sync_close"},
                      Case{"fsync", "write_close_sync"}, Case{"fdatasync", "overwrite"},
                      Case{"fdatasync", "append"}, Case{"fdatasync", "preallocated"},
                      Case{"fdatasync", "write_sync_close"}, Case{"fdatasync", "write_close_sync"},
                      Case{"odsync", "overwrite"}, Case{"odsync", "append"},
                      Case{"osync", "overwrite"}, Case{"osync", "append"},
                      Case{"odirect_dsync", "overwrite"}, Case{"odirect_dsync", "append"},
                      Case{"sync_file_range", "overwrite"}, Case{"sync_file_range", "append"},
                      Case{"none", "overwrite"}, Case{"none", "append"},
                      Case{"dir_fsync", "create"}, Case{"dir_fsync", "rename"}),
    [](const auto& param_info) {
      return std::string(param_info.param.primitive) + "_" + param_info.param.pattern;
    });

}  // namespace
}  // namespace durprobe
