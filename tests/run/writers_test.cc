// /proc/PID/io, /proc/PID/stat and the writers named between two readings (run/writers.h): a
// process's bytes since the first reading, durprobe and its children left out, a pid reused by
// another program counted from 0, most bytes first.
#include "run/writers.h"

#include <gtest/gtest.h>

namespace durprobe::run {
namespace writers_test {

using platform::ParentPidOf;
using platform::ParseProcIo;
using platform::ProcessIo;
using platform::ProcessIoSnapshot;

TEST(ProcIoTest, ParsesWriteBytesAndWriteCalls) {
  Result<ProcessIo> io = ParseProcIo(
      "rchar: 100\nwchar: 4096\nsyscr: 1\nsyscw: 7\nread_bytes: 0\nwrite_bytes: 8192\n"
      "cancelled_write_bytes: 0\n");
  ASSERT_TRUE(io.ok()) << io.status().message();
  EXPECT_EQ(io->write_bytes, 8192u);
  EXPECT_EQ(io->syscw, 7u);
  EXPECT_FALSE(ParseProcIo("rchar: 1\n").ok());
}

TEST(ProcIoTest, TheParentIsReadAfterTheLastParenthesis) {
  EXPECT_EQ(ParentPidOf("1234 (fio) S 77 1234 1 0"), 77);
  EXPECT_EQ(ParentPidOf("1234 (a) b) (c) R 9 1 1"), 9);  // a name with ") " in it
  EXPECT_EQ(ParentPidOf("garbage"), 0);
}

TEST(ProcIoTest, TopWritersLeaveOutDurprobeAndCountFromTheFirstReading) {
  ProcessIoSnapshot before{.self = 10,
                           .processes = {{.pid = 5, .name = "fio", .write_bytes = 1000},
                                         {.pid = 6, .name = "postgres", .write_bytes = 500},
                                         {.pid = 7, .name = "old", .write_bytes = 900}}};
  ProcessIoSnapshot after{
      .self = 10,
      .processes = {{.pid = 5, .name = "fio", .write_bytes = 9000, .syscw = 2},
                    {.pid = 6, .name = "postgres", .write_bytes = 500},  // wrote nothing
                    {.pid = 7, .name = "new", .write_bytes = 300},       // the pid reused
                    {.pid = 10, .ppid = 1, .name = "durprobe", .write_bytes = 1 << 30},
                    {.pid = 11, .ppid = 10, .name = "durprobe", .write_bytes = 1 << 20},
                    {.pid = 12, .name = "a", .write_bytes = 1},
                    {.pid = 13, .name = "b", .write_bytes = 2}}};
  std::vector<model::Writer> top = TopWriters(before, after);
  ASSERT_EQ(top.size(), kNamedWriters);
  EXPECT_EQ(top[0], (model::Writer{5, "fio", 8000, 2}));
  EXPECT_EQ(top[1], (model::Writer{7, "new", 300, 0}));
  EXPECT_EQ(top[2].pid, 13);
}

}  // namespace writers_test
}  // namespace durprobe::run
