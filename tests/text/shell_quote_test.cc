// Issue 32 item 7: a suggested command names its path exactly when pasted into a shell.
#include "text/shell_quote.h"

#include <gtest/gtest.h>

namespace durprobe::text {
namespace {

TEST(ShellQuoteTest, PlainPathsStayAsTyped) {
  EXPECT_EQ(ShellQuote("/var/lib/postgresql/16/main"), "/var/lib/postgresql/16/main");
  EXPECT_EQ(ShellQuote("./data-1_x@host:5%+,y"), "./data-1_x@host:5%+,y");
}

TEST(ShellQuoteTest, AnythingElseIsOneSingleQuotedWord) {
  EXPECT_EQ(ShellQuote("/tmp/my dir"), "'/tmp/my dir'");
  EXPECT_EQ(ShellQuote("/tmp/$(touch x)"), "'/tmp/$(touch x)'");
  EXPECT_EQ(ShellQuote("/tmp/`id`;rm -rf ~"), "'/tmp/`id`;rm -rf ~'");
  EXPECT_EQ(ShellQuote("/tmp/a'b"), "'/tmp/a'\\''b'");
  EXPECT_EQ(ShellQuote("'"), "''\\'''");
  EXPECT_EQ(ShellQuote(""), "''");
  EXPECT_EQ(ShellQuote("/tmp/caf\xc3\xa9"), "'/tmp/caf\xc3\xa9'");
  EXPECT_EQ(ShellQuote("/tmp/a\nb"), "'/tmp/a\nb'");
}

}  // namespace
}  // namespace durprobe::text
