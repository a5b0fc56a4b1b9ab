// Paths are bytes; JSON is UTF-8: validation, replacement and the exact bytes beside.
#include "text/utf8.h"

#include <gtest/gtest.h>

namespace durprobe::text {
namespace {

TEST(Utf8Test, ValidatesWellFormedSequencesOnly) {
  EXPECT_TRUE(IsValidUtf8("/tmp/plain"));
  EXPECT_TRUE(IsValidUtf8("/tmp/caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x92\xbe"));
  EXPECT_FALSE(IsValidUtf8("/tmp/\xff"));
  EXPECT_FALSE(IsValidUtf8("\xc3"));              // truncated
  EXPECT_FALSE(IsValidUtf8("\xc0\xaf"));          // overlong '/'
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80"));      // a surrogate
  EXPECT_FALSE(IsValidUtf8("\xf4\x90\x80\x80"));  // above U+10FFFF
}

TEST(Utf8Test, ReplacesEachInvalidByte) {
  EXPECT_EQ(ToValidUtf8("/tmp/a\xff"
                        "b"),
            "/tmp/a\xef\xbf\xbd"
            "b");
  EXPECT_EQ(ToValidUtf8("\xc0\xaf"), "\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(ToValidUtf8("caf\xc3\xa9"), "caf\xc3\xa9");
}

TEST(Utf8Test, HexIsTheExactBytes) { EXPECT_EQ(HexBytes("/a\xff"), "2f61ff"); }

TEST(Utf8Test, PathFieldsGetTheirBytesOnlyWhenNotUtf8) {
  nlohmann::json j = nlohmann::json::object();
  PutPath(j, "path", "/tmp/ok");
  EXPECT_EQ(j["path"], "/tmp/ok");
  EXPECT_FALSE(j.contains("path_bytes"));
  PutPath(j, "path", "/t\xff");
  EXPECT_EQ(j["path"], "/t\xef\xbf\xbd");
  EXPECT_EQ(j["path_bytes"], "2f74ff");
  PutPaths(j, "paths", {"/a", "/\xfe"});
  EXPECT_EQ(j["paths_bytes"], nlohmann::json({nullptr, "2ffe"}));
  EXPECT_NO_THROW(j.dump());
}

TEST(Utf8Test, ADocumentWithInvalidStringsAndKeysDumps) {
  nlohmann::json j = {{"message", "open /x\xff: denied"}, {"list", {"\xfe"}}};
  j["k\xff"] = 1;
  EXPECT_THROW(j.dump(), nlohmann::json::type_error);
  MakeValidUtf8(j);
  EXPECT_EQ(j["message"], "open /x\xef\xbf\xbd: denied");
  EXPECT_EQ(j["list"][0], "\xef\xbf\xbd");
  EXPECT_EQ(j["k\xef\xbf\xbd"], 1);
  EXPECT_NO_THROW(j.dump());
}

// Issue 32 item 5: what a terminal would act on is shown, not sent.
TEST(Utf8Test, EscapesEveryByteATerminalActsOn) {
  EXPECT_EQ(EscapeControlChars("/tmp/a\x1b]0;title\x07"
                               "b"),
            "/tmp/a\\x1b]0;title\\x07b");
  EXPECT_EQ(EscapeControlChars(std::string("nul\0end", 7)), "nul\\x00end");
  EXPECT_EQ(EscapeControlChars("two\nlines\r\ttab\x7f"), "two\\nlines\\r\\ttab\\x7f");
  EXPECT_EQ(EscapeControlChars("c1 \xc2\x9b"
                               "2J"),
            "c1 \\u009b2J");  // CSI as U+009B
  EXPECT_EQ(EscapeControlChars("raw \x9b"
                               "2J \xff"),
            "raw \\x9b2J \\xff");  // not UTF-8
  EXPECT_EQ(EscapeControlChars("abc\xe2\x80\xae"
                               "txt.exe"),
            "abc\\u202etxt.exe");  // RLO
  EXPECT_EQ(EscapeControlChars("\xe2\x81\xa6x\xe2\x81\xa9"), "\\u2066x\\u2069");
}

TEST(Utf8Test, LeavesPrintableTextAsItIs) {
  std::string text =
      "/srv/caf\xc3\xa9 \xc2\xb5s \xc2\xb1 \xe2\x82\xac \xf0\x9f\x92\xbe C:\\x =$(a) `b`";
  EXPECT_EQ(EscapeControlChars(text), text);
  EXPECT_EQ(EscapeControlChars(""), "");
}

TEST(Utf8Test, AWholeDocumentKeepsItsOwnLinesAndTabs) {
  EXPECT_EQ(EscapeControlChars("a\tb\nc\x1b[2Jd\r\n", LineBreaks::kKeep), "a\tb\nc\\x1b[2Jd\\r\n");
}

}  // namespace
}  // namespace durprobe::text
