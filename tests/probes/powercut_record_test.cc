#include "probes/powercut_record.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "probes/powercut_protocol.h"
#include "probes/powercut_reader.h"

namespace durprobe::probes::powercut_record_test {

constexpr char kRun[] = "0123456789abcdef";

TEST(PowercutRecord, EncodedRecordChecksPresentAndKeepsItsChecksum) {
  std::vector<std::uint8_t> r(4096);
  const std::uint64_t sum = EncodeRecord(7, kRun, r);
  EXPECT_EQ(CheckRecord(r, 7, kRun, sum), RecordState::kPresent);
  // The same slot read as another sequence, another run or another checksum is not this record.
  EXPECT_EQ(CheckRecord(r, 6, kRun, sum), RecordState::kTorn);
  EXPECT_EQ(CheckRecord(r, 7, "fedcba9876543210", sum), RecordState::kTorn);
  EXPECT_EQ(CheckRecord(r, 7, kRun, sum + 1), RecordState::kTorn);
}

TEST(PowercutRecord, ZerosAreMissingAndHalfAWriteIsTorn) {
  std::vector<std::uint8_t> zeros(4096, 0);
  EXPECT_EQ(CheckRecord(zeros, 0, kRun, 0), RecordState::kMissing);
  std::vector<std::uint8_t> r(4096);
  const std::uint64_t sum = EncodeRecord(3, kRun, r);
  std::fill(r.begin() + 2048, r.end(), 0);  // the second half never landed
  EXPECT_EQ(CheckRecord(r, 3, kRun, sum), RecordState::kTorn);
  std::vector<std::uint8_t> flipped(4096);
  const std::uint64_t sum2 = EncodeRecord(3, kRun, flipped);
  flipped[1000] ^= 1;
  EXPECT_EQ(CheckRecord(flipped, 3, kRun, sum2), RecordState::kTorn);
}

TEST(PowercutRecord, SlotsDifferAndSizesAreChecked) {
  std::vector<std::uint8_t> a(512), b(512);
  EXPECT_NE(EncodeRecord(1, kRun, a), EncodeRecord(2, kRun, b));
  EXPECT_NE(a, b);
  EXPECT_TRUE(CheckRecordSize(4096).ok());
  EXPECT_TRUE(CheckRecordSize(512).ok());
  EXPECT_FALSE(CheckRecordSize(100).ok());
  EXPECT_FALSE(CheckRecordSize(4097).ok());
  EXPECT_FALSE(CheckRecordSize(2u << 20).ok());
  EXPECT_TRUE(CheckRunId(kRun).ok());
  EXPECT_FALSE(CheckRunId("0123").ok());
  EXPECT_FALSE(CheckRunId("0123456789ABCDEF").ok());
}

TEST(PowercutProtocol, EveryMessageRoundTrips) {
  Message hello;
  hello.kind = MessageKind::kHello;
  hello.host = "db-1.example";
  hello.run_id = kRun;
  hello.mode = "file:fdatasync";
  hello.record_size = 4096;
  hello.slots = 16384;
  hello.secret = "0123456789abcdef0123456789abcdef";
  std::string line = FormatMessage(hello);
  ASSERT_EQ(line.back(), '\n');
  line.pop_back();
  Result<Message> back = ParseMessage(line);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->kind, MessageKind::kHello);
  EXPECT_EQ(back->host, "db-1.example");
  EXPECT_EQ(back->mode, "file:fdatasync");
  EXPECT_EQ(back->record_size, 4096u);
  EXPECT_EQ(back->slots, 16384u);
  EXPECT_EQ(back->secret, hello.secret);

  Message ack;
  ack.kind = MessageKind::kAck;
  ack.sequence = 12345;
  ack.checksum = 0xdeadbeef00112233ull;
  line = FormatMessage(ack);
  EXPECT_EQ(line, "ACK 12345 deadbeef00112233\n");
  back = ParseMessage(line.substr(0, line.size() - 1));
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->sequence, 12345u);
  EXPECT_EQ(back->checksum, 0xdeadbeef00112233ull);
}

TEST(PowercutProtocol, MalformedLinesAreRefusedWithTheLine) {
  for (const char* bad :
       {"", "ACK", "ACK x 0000000000000000", "ACK 1 123", "HELLO a b c 4",
        "HELLO h 0123456789abcdef file:fsync 4096 0", "GET ZZZ", "RCPT -1", "WHAT 1"}) {
    Result<Message> m = ParseMessage(bad);
    EXPECT_FALSE(m.ok()) << bad;
  }
  Result<Message> m = ParseMessage("HELLO host with-space");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.status().message().find("HELLO host"), std::string::npos);
}

TEST(PowercutProtocol, LineBufferJoinsPiecesAndRefusesEndlessLines) {
  LineBuffer b;
  b.Append("RCPT 1\nRC");
  EXPECT_EQ(b.Next(), "RCPT 1");
  EXPECT_FALSE(b.Next().has_value());
  b.Append("PT 2\r\n");
  EXPECT_EQ(b.Next(), "RCPT 2");
  b.Append(std::string(kMaxLineBytes + 1, 'x'));
  EXPECT_FALSE(b.Next().has_value());
  EXPECT_TRUE(b.overflowed());
}

TEST(PowercutProtocol, WitnessStoreReloadsItsLogAndAnswersGet) {
  const std::string log = std::string("H ") + kRun +
                          " host1 file:fsync 4096 2 0123456789abcdef0123456789abcdef\n"
                          "A 0123456789abcdef 0 00000000000000aa\n"
                          "A 0123456789abcdef 1 00000000000000bb\n"
                          "A 0123456789abcdef 1 00000000000000bb\n"  // a repeat counts once
                          "A 0123456789abcdef 2 00000000000000";     // cut short: not counted
  WitnessStore store;
  ASSERT_TRUE(store.Load(log).ok());
  const WitnessRun* run = store.Find(kRun);
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->host, "host1");
  ASSERT_EQ(run->acks.size(), 2u);
  EXPECT_EQ(run->acks[1].checksum, 0xbbu);
  EXPECT_EQ(AnswerGet(store, kRun, "0123456789abcdef0123456789abcdef"),
            "RUN 0123456789abcdef host1 file:fsync 4096 2 2\n"
            "A 0 00000000000000aa\nA 1 00000000000000bb\nEND\n");
  EXPECT_EQ(AnswerGet(store, "ffffffffffffffff", "0123456789abcdef0123456789abcdef"),
            "UNKNOWN ffffffffffffffff\n");
}

TEST(PowercutProtocol, WitnessStoreRefusesAnAckBeforeItsHelloAndGarbage) {
  WitnessStore store;
  Status s = store.Load("A 0123456789abcdef 0 00000000000000aa\n");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("line 1"), std::string::npos);
  WitnessStore other;
  EXPECT_FALSE(other.Load("garbage here\n").ok());
}

TEST(PowercutRecord, AnEarlierRecordOfTheRunInTheSlotIsMissingNotTorn) {
  std::vector<std::uint8_t> r(4096);
  EncodeRecord(3, kRun, r);  // the slot's previous round
  EXPECT_EQ(CheckRecord(r, 3 + 1024, kRun, 0), RecordState::kMissing);
  r[900] ^= 1;  // ...but damaged: torn
  EXPECT_EQ(CheckRecord(r, 3 + 1024, kRun, 0), RecordState::kTorn);
}

TEST(PowercutReader, OnlyEachSlotsNewestAckIsReadBack) {
  WitnessRun run;
  run.slots = 4;
  for (std::uint64_t s = 0; s < 10; ++s) run.acks.push_back({s, s});
  // Slots 0..3 last took 8, 9, 6, 7.
  EXPECT_EQ(NewestPerSlot(run), (std::vector<std::size_t>{6, 7, 8, 9}));
  run.acks.resize(3);
  EXPECT_EQ(NewestPerSlot(run), (std::vector<std::size_t>{0, 1, 2}));
}

// The file gone: each slot's newest ack is missing, the older ones were overwritten anyway.
TEST(PowercutReader, AFileNotOnTheDiskMissesEveryNewestAck) {
  WitnessRun run;
  run.slots = 4;
  for (std::uint64_t s = 0; s < 10; ++s) run.acks.push_back({s, s});
  const PowercutTally t = AllMissing(run);
  EXPECT_EQ(t.acknowledged, 10u);
  EXPECT_EQ(t.overwritten, 6u);
  EXPECT_EQ(t.missing, 4u);
  EXPECT_EQ(t.present, 0u);
  EXPECT_EQ(t.torn, 0u);
  EXPECT_EQ(t.lost, (std::vector<std::uint64_t>{6, 7, 8, 9}));
}

}  // namespace durprobe::probes::powercut_record_test
