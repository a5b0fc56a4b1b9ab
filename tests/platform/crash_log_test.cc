#include "platform/crash_log.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>

namespace durprobe::platform {
namespace {

// A log written as the crash device's server writes it.
class LogBytes {
 public:
  LogBytes& Write(std::uint64_t offset, const std::string& data) {
    return Add(CrashEvent::kWrite, offset, data);
  }
  LogBytes& Flush() { return Add(CrashEvent::kFlush, 0, ""); }
  LogBytes& Checkpoint() { return Add(CrashEvent::kCheckpoint, 0, ""); }
  const std::string& bytes() const { return bytes_; }

 private:
  LogBytes& Add(std::uint32_t kind, std::uint64_t offset, const std::string& data) {
    CrashLogHeader h{kind, static_cast<std::uint32_t>(data.size()), offset, sequence_++};
    bytes_.append(reinterpret_cast<const char*>(&h), sizeof h);
    bytes_ += data;
    return *this;
  }
  std::string bytes_;
  std::uint64_t sequence_ = 0;
};

TEST(CrashLogTest, NumbersWritesAndFlushesSinceTheLastCheckpoint) {
  LogBytes b;
  b.Write(0, "mkfs")
      .Flush()
      .Checkpoint()
      .Write(4096, "aa")
      .Write(8192, "bb")
      .Flush()
      .Write(0, "cc");
  Result<CrashLog> log = ParseCrashLog(b.bytes());
  ASSERT_TRUE(log.ok()) << log.status().message();
  EXPECT_EQ(log->checkpoints, 1u);
  ASSERT_EQ(log->writes.size(), 3u);
  ASSERT_EQ(log->flushes.size(), 1u);
  EXPECT_EQ(log->events[log->writes[1]].offset, 8192u);
  EXPECT_EQ(log->WritesBeforeFlush(0), 2u);
  EXPECT_EQ(log->WritesBeforeFlush(1), 3u);  // past the last flush: every write
  // The data of write 0 sits right after its header.
  const CrashEvent& first = log->events[log->writes[0]];
  EXPECT_EQ(b.bytes().substr(first.data_at, first.length), "aa");
}

// The kernel merges flushes that overlap, or not, by timing: flushes in a row leave the same disk,
// so they are one crash point, where the first of them was logged.
TEST(CrashLogTest, FlushesInARowAreOneCrashPoint) {
  LogBytes b;
  b.Write(0, "a").Flush().Flush().Flush().Write(1, "b").Flush();
  Result<CrashLog> log = ParseCrashLog(b.bytes());
  ASSERT_TRUE(log.ok()) << log.status().message();
  ASSERT_EQ(log->events.size(), 4u);
  ASSERT_EQ(log->flushes.size(), 2u);
  EXPECT_EQ(log->WritesBeforeFlush(1), 2u);
  const std::size_t first_flush_end = 2 * sizeof(CrashLogHeader) + 1;
  EXPECT_EQ(log->events[log->flushes[0]].data_at, first_flush_end);

  LogBytes once;
  once.Write(0, "a").Flush().Write(1, "b").Flush();
  Result<CrashLog> single = ParseCrashLog(once.bytes());
  ASSERT_TRUE(single.ok());
  ASSERT_EQ(single->events.size(), log->events.size());
  for (std::size_t i = 0; i < log->events.size(); ++i) {
    EXPECT_EQ(single->events[i].kind, log->events[i].kind) << i;
    EXPECT_EQ(single->events[i].offset, log->events[i].offset) << i;
  }
}

TEST(CrashLogTest, ARecordCutShortByTheKillIsLeftOut) {
  LogBytes b;
  b.Write(0, "whole").Write(4096, "cut short");
  std::string bytes = b.bytes().substr(0, b.bytes().size() - 3);
  Result<CrashLog> log = ParseCrashLog(bytes);
  ASSERT_TRUE(log.ok());
  EXPECT_EQ(log->writes.size(), 1u);
}

TEST(CrashLogTest, AGapInTheSequenceIsAnError) {
  LogBytes b;
  b.Write(0, "x");
  std::string bytes = b.bytes() + b.bytes();  // sequence 0 twice
  Result<CrashLog> log = ParseCrashLog(bytes);
  ASSERT_FALSE(log.ok());
  EXPECT_NE(log.status().message().find("sequence 0 where 1 was due"), std::string::npos);
}

TEST(CrashLogTest, AStateKeepsEverythingBeforeItsFlushAndTheChosenWritesAfter) {
  LogBytes b;
  b.Write(0, "a").Flush().Write(1, "b").Write(2, "c").Write(3, "d").Flush();
  Result<CrashLog> log = ParseCrashLog(b.bytes());
  ASSERT_TRUE(log.ok());
  Result<std::vector<StateWrite>> base = StateWrites(*log, {0});
  ASSERT_TRUE(base.ok());
  EXPECT_TRUE(base->empty());
  Result<std::vector<StateWrite>> first = StateWrites(*log, {1});
  ASSERT_TRUE(first.ok());
  ASSERT_EQ(first->size(), 1u);
  // Kept writes come out in the order received, whatever order the spec names them in.
  Result<std::vector<StateWrite>> some = StateWrites(*log, {1, {3, 1}});
  ASSERT_TRUE(some.ok());
  ASSERT_EQ(some->size(), 3u);
  EXPECT_EQ((*some)[1].offset, 1u);
  EXPECT_EQ((*some)[2].offset, 3u);
  Result<std::vector<StateWrite>> all = StateWrites(*log, {2});
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 4u);
}

TEST(CrashLogTest, ATornWriteLandsTheFirstHalfOfEachBlock) {
  LogBytes b;
  b.Flush().Write(8192, std::string(4096 + 1000, 'x'));
  Result<CrashLog> log = ParseCrashLog(b.bytes());
  ASSERT_TRUE(log.ok());
  Result<std::vector<StateWrite>> torn = StateWrites(*log, {1, {0}, {0}});
  ASSERT_TRUE(torn.ok()) << torn.status().message();
  ASSERT_EQ(torn->size(), 2u);
  EXPECT_EQ((*torn)[0].offset, 8192u);
  EXPECT_EQ((*torn)[0].length, 2048u);
  EXPECT_EQ((*torn)[1].offset, 8192u + 4096u);
  EXPECT_EQ((*torn)[1].length, 1000u);  // the last block is shorter than half a block
  EXPECT_EQ((*torn)[1].data_at, log->events[log->writes[0]].data_at + 4096);
}

TEST(CrashLogTest, ASpecOutsideTheLogIsRefused) {
  LogBytes b;
  b.Write(0, "a").Flush();
  Result<CrashLog> log = ParseCrashLog(b.bytes());
  ASSERT_TRUE(log.ok());
  EXPECT_FALSE(StateWrites(*log, {2}).ok());
  EXPECT_FALSE(StateWrites(*log, {0, {5}}).ok());
  EXPECT_FALSE(StateWrites(*log, {1, {}, {0}}).ok()) << "write 0 is before the flush: not torn";
  EXPECT_EQ(DescribeState({3, {17, 18}, {18}}), "flush 3 + writes 17-18 (torn 18)");
}

// Three flushes with four writes between each: 12 writes.
CrashLog ThreeFlushes() {
  LogBytes b;
  for (int k = 0; k < 3; ++k) {
    for (int w = 0; w < 4; ++w) b.Write(static_cast<std::uint64_t>(4096 * (4 * k + w)), "x");
    b.Flush();
  }
  return *ParseCrashLog(b.bytes());
}

TEST(CrashLogTest, StatesStartWithEveryFlushThenSubsetsOfItsCache) {
  CrashLog log = ThreeFlushes();
  std::vector<CrashStateSpec> states = ChooseStates(log, CacheMode::kHonest, 10, 7);
  ASSERT_EQ(states.size(), 10u);
  for (std::size_t k = 0; k <= 3; ++k) {
    EXPECT_EQ(states[k].after_flush, k);
    EXPECT_TRUE(states[k].kept.empty());
  }
  for (std::size_t i = 4; i < states.size(); ++i) {
    const CrashStateSpec& s = states[i];
    ASSERT_FALSE(s.kept.empty());
    EXPECT_TRUE(s.torn.empty());
    std::size_t begin = s.after_flush == 0 ? 0 : log.WritesBeforeFlush(s.after_flush - 1);
    for (std::size_t w : s.kept) {
      EXPECT_GE(w, begin) << DescribeState(s);
      EXPECT_LT(w, log.WritesBeforeFlush(s.after_flush)) << DescribeState(s);
    }
    EXPECT_TRUE(StateWrites(log, s).ok());
  }
}

TEST(CrashLogTest, TheSameSeedGivesTheSameStates) {
  CrashLog log = ThreeFlushes();
  auto text = [&](std::uint64_t seed) {
    std::string all;
    for (const CrashStateSpec& s : ChooseStates(log, CacheMode::kTorn, 30, seed)) {
      all += DescribeState(s) + ";";
    }
    return all;
  };
  EXPECT_EQ(text(1), text(1));
  EXPECT_NE(text(1), text(2));
}

TEST(CrashLogTest, TornAndIgnoresFlushStatesFollowTheirMode) {
  CrashLog log = ThreeFlushes();
  for (const CrashStateSpec& s : ChooseStates(log, CacheMode::kTorn, 20, 3)) {
    if (s.kept.empty()) continue;
    ASSERT_EQ(s.torn.size(), 1u);
    EXPECT_TRUE(StateWrites(log, s).ok()) << DescribeState(s);
  }
  for (const CrashStateSpec& s : ChooseStates(log, CacheMode::kIgnoresFlush, 20, 3)) {
    if (s.kept.empty()) continue;
    EXPECT_EQ(s.after_flush, 0u);
    // The cut came before the flush its window ends at, so the commits acknowledged before
    // that flush count, not those before the first one.
    ASSERT_TRUE(s.cut_before.has_value()) << DescribeState(s);
    EXPECT_EQ(s.CutBefore(), *s.cut_before);
    EXPECT_LT(s.kept.back(), log.WritesBeforeFlush(*s.cut_before)) << DescribeState(s);
    EXPECT_LT(s.kept.size(), 12u) << "at least one write dropped: " << DescribeState(s);
    EXPECT_TRUE(StateWrites(log, s).ok());
  }
}

TEST(CrashLogTest, MoreFlushesThanStatesSpreadsThemKeepingTheLast) {
  CrashLog log = ThreeFlushes();
  std::vector<CrashStateSpec> states = ChooseStates(log, CacheMode::kHonest, 2, 0);
  ASSERT_EQ(states.size(), 2u);
  EXPECT_EQ(states[0].after_flush, 0u);
  EXPECT_EQ(states[1].after_flush, 3u);
  EXPECT_EQ(DescribeState({0, {0, 1, 2, 5, 7, 8}}), "flush 0 + writes 0-2,5,7-8");
}

// --states is a ceiling: with as many flushes as states (flushes + 1 flush points), or one either
// side of it, no more states come back than asked for, the last flush always among them.
TEST(CrashLogTest, NoMoreStatesThanAskedWhateverTheFlushCount) {
  CrashLog log = ThreeFlushes();
  ASSERT_EQ(log.flushes.size(), 3u);
  for (CacheMode mode : {CacheMode::kHonest, CacheMode::kTorn, CacheMode::kIgnoresFlush}) {
    for (std::size_t max_states = 1; max_states <= 6; ++max_states) {
      std::vector<CrashStateSpec> states = ChooseStates(log, mode, max_states, 11);
      EXPECT_EQ(states.size(), max_states) << CacheModeName(mode) << " --states " << max_states;
      bool last = false;
      for (const CrashStateSpec& s : states) last = last || (s.kept.empty() && s.after_flush == 3);
      EXPECT_TRUE(last) << CacheModeName(mode) << " --states " << max_states;
    }
  }
  // Exactly as many states as flushes: three flush points of the four, spread, the last kept.
  std::vector<CrashStateSpec> three = ChooseStates(log, CacheMode::kHonest, 3, 0);
  ASSERT_EQ(three.size(), 3u);
  EXPECT_EQ(three[0].after_flush, 0u);
  EXPECT_EQ(three[2].after_flush, 3u);
}

// A subset drawn twice would check the same disk twice: every state is a different disk, or the
// same disk cut at another moment (the commits acknowledged by then differ).
TEST(CrashLogTest, NoTwoStatesAreTheSameDiskCutAtTheSameMoment) {
  CrashLog log = ThreeFlushes();
  for (CacheMode mode : {CacheMode::kHonest, CacheMode::kTorn, CacheMode::kIgnoresFlush}) {
    std::set<std::pair<std::size_t, std::string>> seen;
    std::vector<CrashStateSpec> states = ChooseStates(log, mode, 200, 5);
    for (const CrashStateSpec& s : states) {
      Result<std::vector<StateWrite>> writes = StateWrites(log, s);
      ASSERT_TRUE(writes.ok());
      std::string disk;
      for (const StateWrite& w : *writes)
        disk += fmt::format("{}+{}@{};", w.offset, w.length, w.data_at);
      std::vector<std::size_t> torn = s.torn;  // a 1-byte write torn or whole lands the same
      std::sort(torn.begin(), torn.end());
      for (std::size_t t : torn) disk += fmt::format("torn {};", t);
      if (!s.kept.empty()) {
        EXPECT_TRUE(seen.insert({s.CutBefore(), disk}).second)
            << CacheModeName(mode) << ": " << DescribeState(s) << " again";
      }
    }
    if (mode == CacheMode::kHonest) {
      // The 4 flush points, and the 15 subsets of each of the 3 windows of 4 writes (after
      // the last flush the cache is empty), none twice.
      EXPECT_EQ(states.size(), 4u + 3u * 15u);
    }
  }
}

TEST(CrashLogTest, AStatesWordsReadBackToTheSameState) {
  CrashLog log = ThreeFlushes();
  for (CacheMode mode : {CacheMode::kHonest, CacheMode::kTorn, CacheMode::kIgnoresFlush}) {
    for (const CrashStateSpec& s : ChooseStates(log, mode, 30, 7)) {
      Result<CrashStateSpec> back = ParseStateDescription(DescribeState(s));
      ASSERT_TRUE(back.ok()) << DescribeState(s) << ": " << back.status().message();
      CrashStateSpec sorted = s;
      std::sort(sorted.kept.begin(), sorted.kept.end());
      std::sort(sorted.torn.begin(), sorted.torn.end());
      EXPECT_EQ(*back, sorted) << DescribeState(s);
    }
  }
  Result<CrashStateSpec> cut = ParseStateDescription("flush 0 + writes 0-2,9; cut before flush 3");
  ASSERT_TRUE(cut.ok()) << cut.status().message();
  EXPECT_EQ(cut->kept, (std::vector<std::size_t>{0, 1, 2, 9}));
  EXPECT_EQ(cut->CutBefore(), 3u);
}

TEST(CrashLogTest, WordsThatAreNotAStateAreRefusedNamingThePart) {
  for (const char* bad : {"", "flush", "flush x", "flush 3 + writes", "flush 3 + writes 5-2",
                          "flush 3 + writes 1,", "flush 3 (torn 1", "flush 3 junk",
                          "flush 99999999999999999999", "flush 1 + writes 0-99999999"}) {
    Result<CrashStateSpec> spec = ParseStateDescription(bad);
    ASSERT_FALSE(spec.ok()) << bad;
    EXPECT_EQ(spec.status().kind(), Status::Kind::kInvalidArgument) << bad;
    EXPECT_NE(spec.status().message().find("crash state"), std::string::npos);
  }
}

}  // namespace
}  // namespace durprobe::platform
