// The power-cut protocol's per-run secret (probes/powercut_protocol.h): HELLO and GET carry it,
// a log's H line keeps it (an H from before secrets still loads, its run never readable), a run
// is reattached only with its secret and parameters, and GET tells a wrong secret apart from an
// unknown run in nothing.
#include <gtest/gtest.h>

#include <string>

#include "probes/powercut_protocol.h"

namespace durprobe::probes::powercut_secret_test {

constexpr char kRun[] = "0123456789abcdef";
constexpr char kSecret[] = "00112233445566778899aabbccddeeff";
constexpr char kOther[] = "ffeeddccbbaa99887766554433221100";

Message Hello(std::string secret, std::uint64_t slots = 8) {
  Message m;
  m.kind = MessageKind::kHello;
  m.host = "db-1";
  m.run_id = kRun;
  m.mode = "file:fdatasync";
  m.record_size = 4096;
  m.slots = slots;
  m.secret = std::move(secret);
  return m;
}

TEST(PowercutSecret, ASecretIs32LowercaseHexDigits) {
  EXPECT_TRUE(IsSecret(kSecret));
  EXPECT_FALSE(IsSecret(""));
  EXPECT_FALSE(IsSecret("00112233445566778899aabbccddeef"));    // 31
  EXPECT_FALSE(IsSecret("00112233445566778899aabbccddeeff0"));  // 33
  EXPECT_FALSE(IsSecret("00112233445566778899AABBCCDDEEFF"));   // upper case
  EXPECT_FALSE(IsSecret("00112233445566778899aabbccddeefg"));
}

TEST(PowercutSecret, HelloAndGetCarryItAndRefuseLinesWithoutIt) {
  EXPECT_EQ(FormatMessage(Hello(kSecret)),
            std::string("HELLO db-1 ") + kRun + " file:fdatasync 4096 8 " + kSecret + "\n");
  Message get;
  get.kind = MessageKind::kGet;
  get.run_id = kRun;
  get.secret = kSecret;
  EXPECT_EQ(FormatMessage(get), std::string("GET ") + kRun + " " + kSecret + "\n");
  Result<Message> back = ParseMessage(std::string("GET ") + kRun + " " + kSecret);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->secret, kSecret);
  for (const std::string& bad : {
           std::string("GET ") + kRun,
           std::string("GET ") + kRun + " 00112233",
           std::string("GET ") + kRun + " " + kSecret + " more",
           std::string("HELLO db-1 ") + kRun + " file:fdatasync 4096 8",
           std::string("HELLO db-1 ") + kRun + " file:fdatasync 4096 8 00112233445566778899AABB" +
               "CCDDEEFF",
       }) {
    EXPECT_FALSE(ParseMessage(bad).ok()) << bad;
  }
}

TEST(PowercutSecret, ALogFromBeforeSecretsLoadsButItsRunsAreNeverReadOrReattached) {
  Message old = Hello("");
  old.kind = MessageKind::kLogHello;
  const std::string h = FormatMessage(old);
  EXPECT_EQ(h, std::string("H ") + kRun + " db-1 file:fdatasync 4096 8\n");
  WitnessStore store;
  ASSERT_TRUE(store.Load(h + "A " + kRun + " 0 00000000000000aa\n").ok());
  ASSERT_NE(store.Find(kRun), nullptr);
  EXPECT_EQ(store.Find(kRun)->acks.size(), 1u);
  EXPECT_EQ(AnswerGet(store, kRun, kSecret), std::string("UNKNOWN ") + kRun + "\n");
  EXPECT_FALSE(store.CheckHello(Hello(kSecret)).ok());
}

TEST(PowercutSecret, GetAnswersOnlyWithTheRightSecretAndAWrongOneLooksUnknown) {
  Message h = Hello(kSecret);
  h.kind = MessageKind::kLogHello;
  WitnessStore store;
  ASSERT_TRUE(store.Load(FormatMessage(h) + "A " + kRun + " 3 00000000000000aa\n").ok());
  EXPECT_EQ(
      AnswerGet(store, kRun, kSecret),
      std::string("RUN ") + kRun + " db-1 file:fdatasync 4096 8 1\nA 3 00000000000000aa\nEND\n");
  const std::string wrong = AnswerGet(store, kRun, kOther);
  EXPECT_EQ(wrong, std::string("UNKNOWN ") + kRun + "\n");
  // An unknown run gets the same words: the answer says nothing of whether the run exists.
  EXPECT_EQ(AnswerGet(store, "fedcba9876543210", kOther), "UNKNOWN fedcba9876543210\n");
  EXPECT_EQ(AnswerGet(store, kRun, ""), wrong);
}

TEST(PowercutSecret, AKnownRunIsReattachedOnlyWithItsSecretAndParameters) {
  WitnessStore store;
  EXPECT_TRUE(store.CheckHello(Hello(kSecret)).ok()) << "a run the store does not know";
  Message h = Hello(kSecret);
  h.kind = MessageKind::kLogHello;
  ASSERT_TRUE(store.Apply(h).ok());
  EXPECT_TRUE(store.CheckHello(Hello(kSecret)).ok()) << "its writer back";
  Status wrong = store.CheckHello(Hello(kOther));
  ASSERT_FALSE(wrong.ok());
  EXPECT_NE(wrong.message().find("secret"), std::string::npos) << wrong.message();
  Status slots = store.CheckHello(Hello(kSecret, 9));
  ASSERT_FALSE(slots.ok());
  EXPECT_NE(slots.message().find("not db-1 file:fdatasync 4096 9"), std::string::npos)
      << slots.message();
  Message host = Hello(kSecret);
  host.host = "db-2";
  EXPECT_FALSE(store.CheckHello(host).ok());
  // A log with a second H of the run that does not match its first is not the witness's own.
  Message forged = Hello(kOther, 9);
  forged.kind = MessageKind::kLogHello;
  WitnessStore reload;
  Status s = reload.Load(FormatMessage(h) + FormatMessage(forged));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("line 2"), std::string::npos) << s.message();
  WitnessStore same;
  EXPECT_TRUE(same.Load(FormatMessage(h) + FormatMessage(h)).ok());
  EXPECT_EQ(same.runs(), 1u);
}

TEST(PowercutSecret, OnlyWhatCouldBeginALogLineCountsAsOneCutShort) {
  EXPECT_TRUE(IsLogLinePrefix(""));
  EXPECT_TRUE(IsLogLinePrefix("H"));
  EXPECT_TRUE(IsLogLinePrefix("A 0123456789abcdef 12 00"));
  EXPECT_TRUE(IsLogLinePrefix(std::string("H ") + kRun + " db-1 file:fsync 4096 8 0011"));
  EXPECT_FALSE(IsLogLinePrefix("a secret of 17 b."));
  EXPECT_FALSE(IsLogLinePrefix("HELLO"));
  EXPECT_FALSE(IsLogLinePrefix("A \x1b[2J"));
  EXPECT_FALSE(IsLogLinePrefix("A " + std::string(kMaxLineBytes, '0')));
}

}  // namespace durprobe::probes::powercut_secret_test
