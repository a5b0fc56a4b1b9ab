// durprobe watch sees each durability call by its kind, on the file it touched: pwritev2 with
// RWF_DSYNC, writes to a descriptor opened O_DSYNC, msync(MS_SYNC) on a shared mapping (its file
// found though the mapping is gone when watch reads the sync), fsync; and io_uring's
// IORING_OP_FSYNC, which strace cannot see. The programs are started by the test while watch
// runs with --comm; the counts are the programs' own by construction.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli_runner.h"
#include "tests/integration/watch_support.h"
#include "tests/test_dirs.h"

namespace durprobe {
namespace {

using testing_support::MissingForWatch;
using testing_support::Slurp;
using testing_support::TempDir;

constexpr const char* kCalls = R"py(import mmap, os, sys
d = sys.argv[1]
fd = os.open(d + "/pwritev2", os.O_CREAT | os.O_WRONLY, 0o644)
for i in range(5):
    os.pwritev(fd, [b"x" * 4096], i * 4096, os.RWF_DSYNC)
os.close(fd)
fd = os.open(d + "/odsync", os.O_CREAT | os.O_WRONLY | os.O_DSYNC, 0o644)
for i in range(4):
    os.write(fd, b"y" * 1000)
os.close(fd)
fd = os.open(d + "/mapped", os.O_CREAT | os.O_RDWR, 0o644)
os.ftruncate(fd, 8192)
m = mmap.mmap(fd, 8192)
for i in range(3):
    m[0:10] = b"z" * 10
    m.flush()
m.close()
os.close(fd)
fd = os.open(d + "/fsynced", os.O_CREAT | os.O_WRONLY, 0o644)
os.write(fd, b"a" * 3000)
os.fsync(fd)
os.close(fd)
)py";

// Runs program (a path named comm) with its arguments while watch --comm comm runs; the
// document watch wrote.
nlohmann::json Watch(const std::string& d, const std::string& comm, const std::string& command) {
  std::string script =
      DURPROBE_BINARY " watch --comm " + comm + " --json " + d + "/w.json >" + d + "/out 2>" + d +
      "/err & W=$!; " + "for i in $(seq 300); do grep -q observing " + d +
      "/err && break; sleep 0.1; done; " + command + "; sleep 0.3; kill -INT $W; wait $W";
  testing_support::CliRun run = testing_support::RunShell(script);
  EXPECT_EQ(run.exit_code, 0) << run.err << Slurp(d + "/err");
  std::string text = Slurp(d + "/w.json");
  return nlohmann::json::parse(text.empty() ? "{}" : text);
}

nlohmann::json FileOf(const nlohmann::json& doc, const std::string& path) {
  for (const auto& f : doc.value("files", nlohmann::json::array())) {
    if (f.value("path", "") == path) return f;
  }
  return nlohmann::json::object();
}

TEST(WatchCallsTest, EachCallOnItsFile) {
  std::string missing = MissingForWatch();
  if (!missing.empty()) GTEST_SKIP() << "durprobe watch " << missing;
  TempDir dir("/var/tmp");
  const std::string d = dir.path();
  std::ofstream(d + "/calls.py") << kCalls;
  std::string comm = "dpc" + std::to_string(::getpid() % 100000);
  ASSERT_EQ(::symlink(testing_support::kPython, (d + "/" + comm).c_str()), 0);
  nlohmann::json doc = Watch(d, comm, d + "/" + comm + " " + d + "/calls.py " + d);
  struct Expected {
    const char* file;
    const char* call;
    int count;
    std::uint64_t bytes;
  };
  for (const Expected& e :
       {Expected{"pwritev2", "pwritev2_sync", 5, 5 * 4096},
        Expected{"odsync", "osync_write", 4, 4000}, Expected{"mapped", "msync", 3, 0},
        Expected{"fsynced", "fsync", 1, 3000}}) {
    nlohmann::json f = FileOf(doc, d + "/" + e.file);
    EXPECT_EQ(f.value("syncs", 0), e.count) << e.file << "\n" << doc.dump(1);
    EXPECT_EQ(f["calls"].value(e.call, 0), e.count) << e.file;
    EXPECT_EQ(f.value("bytes_synced", std::uint64_t{0}), e.bytes) << e.file;
  }
}

TEST(WatchCallsTest, IoUringFsyncsThatStraceCannotSee) {
#ifndef DURPROBE_TEST_URING_WRITER
  GTEST_SKIP() << "the io_uring writer is not built (no liburing)";
#else
  std::string missing = MissingForWatch();
  if (!missing.empty()) GTEST_SKIP() << "durprobe watch " << missing;
  TempDir dir("/var/tmp");
  const std::string d = dir.path();
  std::string comm = "dpu" + std::to_string(::getpid() % 100000);
  ASSERT_EQ(::symlink(DURPROBE_TEST_URING_WRITER, (d + "/" + comm).c_str()), 0);
  nlohmann::json doc = Watch(d, comm,
                             "strace -f -qq -e trace=fsync,fdatasync -o " + d + "/strace.txt " + d +
                                 "/" + comm + " " + d + "/ring.dat 7");
  EXPECT_EQ(Slurp(d + "/strace.txt"), "");  // strace sees no sync at all
  nlohmann::json f = FileOf(doc, d + "/ring.dat");
  EXPECT_EQ(f.value("syncs", 0), 7) << doc.dump(1);
  EXPECT_EQ(f["calls"].value("io_uring_fsync", 0), 7);
  EXPECT_EQ(f.value("bytes_synced", std::uint64_t{0}), 7u * 4096);
#endif
}

}  // namespace
}  // namespace durprobe
