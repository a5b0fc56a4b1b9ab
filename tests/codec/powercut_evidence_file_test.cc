// The evidence file's reader (--evidence; issue 53 point 4): a count that is no whole number from
// 0 to 2^53, a key given twice, counts that do not add up or contradict the file's verdict, a pass
// that read nothing back: each refused in one line naming the problem, never read as a pass.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "analysis/powercut_verdict.h"
#include "codec/powercut_json.h"

namespace durprobe::codec::powercut_evidence_file_test {

using nlohmann::json;

// A passed test as verify writes it: the writer went round its file (overwritten), and a reboot
// came between the write and the verify.
model::PowercutEvidence Passed() {
  model::PowercutEvidence e;
  e.run_id = "0123456789abcdef";
  e.date = "2026-12-06T04:00:00Z";
  e.mode = "file";
  e.primitive = "fdatasync";
  e.device = e.disk = "vda";
  e.fstype = "ext4";
  e.acknowledged = 5000;
  e.overwritten = 1000;
  e.present = 4000;
  e.writer_boot_id = "a";
  e.verify_boot_id = "b";
  e.verdict = analysis::PowercutVerdictOf(e);
  return e;
}

json Document(const model::PowercutEvidence& e) { return json::parse(PowercutEvidenceDocument(e)); }

// Why the document is refused ("" when it is read).
std::string Refusal(const std::string& text) {
  Result<model::PowercutEvidence> r = ParsePowercutEvidence(text);
  if (r.ok()) {
    ADD_FAILURE() << "read as " << model::NameOf(r->verdict) << ": " << text.substr(0, 400);
    return "";
  }
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos) << r.status().message();
  return r.status().message();
}
std::string Refusal(const json& doc) { return Refusal(doc.dump(2)); }

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

TEST(PowercutEvidenceFileTest, VerifysOwnFilesAreRead) {
  Result<model::PowercutEvidence> passed =
      ParsePowercutEvidence(PowercutEvidenceDocument(Passed()));
  ASSERT_TRUE(passed.ok()) << passed.status().message();
  EXPECT_EQ(passed->verdict, model::PowercutVerdict::kPassed);
  model::PowercutEvidence failed = Passed();
  failed.present = 3990;
  failed.missing = 8;
  failed.torn = 2;
  failed.lost = {4990, 4991};
  failed.verdict = model::PowercutVerdict::kFailed;
  Result<model::PowercutEvidence> back = ParsePowercutEvidence(PowercutEvidenceDocument(failed));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->Lost(), 10u);
  // A file the cut took with it: every acknowledged record missing, none present.
  model::PowercutEvidence gone = Passed();
  gone.present = 0;
  gone.missing = 4000;
  gone.file_missing = true;
  gone.verdict = model::PowercutVerdict::kFailed;
  EXPECT_TRUE(ParsePowercutEvidence(PowercutEvidenceDocument(gone)).ok());
}

TEST(PowercutEvidenceFileTest, CountsThatOverflowOrAreNotWholeNumbersAreRefused) {
  // missing 2^64-1 + torn 1 wrapped to 0 lost, and read a failed test as verified.
  json wrap = Document(Passed());
  wrap["records"]["missing"] = UINT64_MAX;
  wrap["records"]["torn"] = 1;
  wrap["records"].erase("lost");
  wrap["verdict"] = "failed";
  EXPECT_HAS(Refusal(wrap), "records.missing: 18446744073709551615 is not a count");
  json huge = Document(Passed());
  huge["records"]["missing"] = 1e30;
  huge["records"]["torn"] = 1e30;
  huge["verdict"] = "failed";
  EXPECT_HAS(Refusal(huge), "is not a count");
  for (const char* value : {"2.5", "-1", "9007199254740993", "1e30", "4000.0"}) {
    std::string text = Document(Passed()).dump(2);
    const std::string present = "\"present\": 4000";
    ASSERT_NE(text.find(present), std::string::npos);
    text.replace(text.find(present), present.size(), std::string("\"present\": ") + value);
    EXPECT_HAS(Refusal(text), std::string("records.present: "));
  }
  json sequence = Document(Passed());
  sequence["records"]["lost_sequences"] = json::array({1, 0.5});
  EXPECT_HAS(Refusal(sequence), "records.lost_sequences[1]: 0.5 is not a count");
  json size = Document(Passed());
  size["record_size"] = -4096;
  EXPECT_HAS(Refusal(size), "record_size: -4096 is not a count");
  // 2^53 itself is a count.
  model::PowercutEvidence edge = Passed();
  edge.acknowledged = (std::uint64_t{1} << 53);
  edge.overwritten = edge.acknowledged - edge.present;
  EXPECT_TRUE(ParsePowercutEvidence(PowercutEvidenceDocument(edge)).ok());
}

TEST(PowercutEvidenceFileTest, AVerdictItsCountsContradictIsRefused) {
  json failed_clean = Document(Passed());
  failed_clean["verdict"] = "failed";
  EXPECT_HAS(Refusal(failed_clean), "its verdict is failed, but its counts say passed");
  json passed_lossy = Document(Passed());
  passed_lossy["records"]["present"] = 3997;
  passed_lossy["records"]["torn"] = 3;
  passed_lossy["records"]["lost"] = 3;
  EXPECT_HAS(Refusal(passed_lossy), "its verdict is passed, but its counts say failed");
  json sqlite = Document(Passed());
  sqlite["mode"] = "sqlite";
  sqlite["integrity_check"] = "*** in database main ***";
  EXPECT_HAS(Refusal(sqlite), "its counts say failed");
}

TEST(PowercutEvidenceFileTest, CountsThatDoNotAddUpAreRefused) {
  json more = Document(Passed());
  more["records"]["present"] = 4001;
  EXPECT_HAS(Refusal(more), "the counts do not add up");
  // An honest cut's in-flight records count among the acknowledged (verify's in_flight).
  json in_flight = Document(Passed());
  in_flight["records"]["present"] = 3999;
  in_flight["records"]["in_flight"] = 1;
  EXPECT_TRUE(ParsePowercutEvidence(in_flight.dump()).ok());
  in_flight["records"]["in_flight"] = 2;
  EXPECT_HAS(Refusal(in_flight), "in_flight 2");
  json fewer = Document(Passed());
  fewer["records"]["acknowledged"] = 5001;
  EXPECT_HAS(Refusal(fewer), "is not acknowledged 5001");
  json lost = Document(Passed());
  lost["records"]["lost"] = 0;
  lost["records"]["missing"] = 1;
  lost["records"]["present"] = 3999;
  lost["verdict"] = "failed";
  EXPECT_HAS(Refusal(lost), "records.lost is 0, but missing 1 + torn 0 is 1");
  json file = Document(Passed());
  file["records"]["file_missing"] = true;
  EXPECT_HAS(Refusal(file), "file_missing, yet 4000 records present");
  json none = Document(Passed());
  none["records"]["acknowledged"] = 0;
  none["records"]["overwritten"] = 0;
  none["records"]["present"] = 0;
  none["verdict"] = "failed";
  EXPECT_HAS(Refusal(none), "no acknowledged record");
}

// 5 acknowledged, every one overwritten and none read back: nothing was verified.
TEST(PowercutEvidenceFileTest, APassThatReadNothingBackIsRefused) {
  model::PowercutEvidence unread = Passed();
  unread.acknowledged = unread.overwritten = 5;
  unread.present = 0;
  EXPECT_EQ(analysis::PowercutVerdictOf(unread), model::PowercutVerdict::kFailed);
  unread.verdict = model::PowercutVerdict::kPassed;
  EXPECT_HAS(Refusal(Document(unread)), "its verdict is passed, but its counts say failed");
}

TEST(PowercutEvidenceFileTest, AKeyGivenTwiceIsRefused) {
  std::string text = Document(Passed()).dump(2);
  const std::string verdict = "\"verdict\": \"passed\"";
  ASSERT_NE(text.find(verdict), std::string::npos);
  // A second verdict after the first: a reader that kept the last would read "failed".
  text.insert(text.find(verdict) + verdict.size(), ",\n  \"verdict\": \"failed\"");
  EXPECT_HAS(Refusal(text), "'verdict' appears twice");
  std::string nested = Document(Passed()).dump(2);
  const std::string torn = "\"torn\": 0";
  nested.insert(nested.find(torn) + torn.size(), ", \"torn\": 7");
  EXPECT_HAS(Refusal(nested), "'torn' appears twice in records");
}

}  // namespace durprobe::codec::powercut_evidence_file_test
