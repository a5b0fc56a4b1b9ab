// Issue 32 items 5, 6, 7 and 13: documents whose paths, host names, messages and rule names
// carry ESC sequences, BEL, NUL, newlines, a formula, $(...), a space, HTML and backticks,
// rendered in every format. Nothing raw survives where the format cannot carry it: the console
// shows each control byte as an escape, CSV neutralises formulas, Markdown, HTML and JUnit carry
// no tag from a path, Prometheus labels stay one line, and JSON keeps the exact string.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "codec/json_reader.h"
#include "explain/compare_analysis.h"
#include "explain/diff_analysis.h"
#include "explain/path_summary.h"
#include "explain/summary.h"
#include "output/output.h"
#include "tests/compare_samples.h"
#include "tests/fixtures.h"
#include "text/shell_quote.h"
#include "text/utf8.h"

namespace durprobe::output {
namespace {

// Every odd byte at once; the newline is followed by text that would forge a line of its own.
constexpr char kOddBytes[] =
    "/tmp/odd \x1b]0;owned\x07 \x1b[2J nul\0 bell\x07\n=cmd|' /C calc'!A0 $(touch x) "
    "</td></tr></table><img src=x onerror=alert(1)> a`b``c \xc2\x9b \x7f end";
const std::string kOdd(kOddBytes, sizeof(kOddBytes) - 1);

// Bytes no terminal should be sent: C0 controls but the ones allowed, DEL, C1 (as UTF-8), and
// invalid UTF-8. Returns a description of the first one, or "".
std::string FirstRawByte(const std::string& text, const std::string& allowed) {
  if (!text::IsValidUtf8(text)) return "invalid UTF-8";
  for (std::size_t i = 0; i < text.size(); ++i) {
    unsigned char u = static_cast<unsigned char>(text[i]);
    bool c0 = u < 0x20 && allowed.find(text[i]) == std::string::npos;
    bool c1 = u == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
              static_cast<unsigned char>(text[i + 1]) <= 0x9F;
    if (c0 || u == 0x7F || c1) {
      return "byte " + std::to_string(u) + " at " + std::to_string(i) + " near '" +
             text::EscapeControlChars(text.substr(i > 30 ? i - 30 : 0, 60)) + "'";
    }
  }
  return "";
}

// A line of text that starts with the forged text: the newline in a value started a line.
bool StartsAForgedLine(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::size_t start = line.find_first_not_of(" \t\"'");
    if (start != std::string::npos && line.compare(start, 4, "=cmd") == 0) return true;
  }
  return false;
}

// Markdown with its code spans taken out (CommonMark: a run of n backticks opens one, the next
// run of exactly n closes it): inside one, < is shown as it is and opens no tag.
std::string WithoutCodeSpans(const std::string& md) {
  std::string out;
  for (std::size_t i = 0; i < md.size();) {
    if (md[i] != '`') {
      out += md[i++];
      continue;
    }
    std::size_t n = md.find_first_not_of('`', i) - i;
    std::size_t close = i + n;
    while (true) {
      close = md.find('`', close);
      if (close == std::string::npos) break;
      std::size_t run = std::min(md.find_first_not_of('`', close), md.size()) - close;
      if (run == n) break;
      close += run;
    }
    if (close == std::string::npos) {  // not a code span: the backticks are text
      out.append(n, '`');
      i += n;
      continue;
    }
    i = close + n;
  }
  return out;
}

model::Report HostileReport(const std::string& fixture) {
  Result<model::Report> r = codec::FromJson(testing_support::ReadFixture(fixture));
  EXPECT_TRUE(r.ok()) << fixture << ": " << r.status().message();
  if (!r.ok()) return model::Report{};
  r->context.host = "=host " + kOdd;
  r->context.command = "run " + kOdd;
  for (testing_support::Target& t : r->targets) {
    t.path = kOdd;
    if (t.mount) {
      t.mount->source = kOdd;
      t.mount->mount_point = kOdd;
    }
    t.findings.push_back({model::Severity::kWarn, "odd`code", kOdd});
    if (!t.probes.empty()) {
      t.probes.front().reason = "-" + kOdd;
      // A device's name and why flushes could not be counted are a saved report's text too.
      t.probes.front().device_flushes = {
          .counted = true, .devices = {{.name = kOdd, .flushes = 2}}, .ops = 1, .ns = 1};
    }
    if (t.probes.size() > 1)
      t.probes.back().device_flushes = {.counted = true, .unavailable = kOdd};
    t.summary.reset();
    t.advice.clear();
    explain::AddPathSummary(t);
  }
  for (model::CheckResult& c : r->checks) {
    c.path = kOdd;
    c.rule = "@rule " + kOdd;
    c.message = kOdd;
  }
  return *r;
}

template <typename Document>
std::string OddRendered(Format format, const Document& doc) {
  Result<std::string> text = Render(format, doc);
  return text.ok() ? *text : std::string();
}

// The formats that write the document, each checked for what it must not carry.
template <typename Document>
void ExpectNothingRaw(const Document& doc, const std::string& what) {
  std::string console = OddRendered(Format::kConsole, doc);
  EXPECT_FALSE(console.empty()) << what;
  EXPECT_EQ(FirstRawByte(console, "\n\t"), "") << what << " console";
  EXPECT_FALSE(StartsAForgedLine(console)) << what << " console:\n" << console;
  EXPECT_NE(console.find("\\x1b]0;owned\\x07"), std::string::npos) << what << " console";

  std::string markdown = OddRendered(Format::kMarkdown, doc);
  if (!markdown.empty()) {
    EXPECT_EQ(FirstRawByte(markdown, "\n"), "") << what << " markdown";
    EXPECT_FALSE(StartsAForgedLine(markdown)) << what << " markdown:\n" << markdown;
    for (const char* tag : {"<img", "</td", "</table", "<script"}) {
      EXPECT_EQ(WithoutCodeSpans(markdown).find(tag), std::string::npos)
          << what << " markdown has " << tag << ":\n"
          << markdown;
    }
  }
  for (Format xml : {Format::kHtml, Format::kJunit}) {
    std::string text = OddRendered(xml, doc);
    if (text.empty()) continue;
    EXPECT_EQ(FirstRawByte(text, "\n\t\r"), "") << what << " " << NameOf(xml);
    EXPECT_EQ(text.find("<img src=x"), std::string::npos) << what << " " << NameOf(xml);
    EXPECT_EQ(text.find("</td></tr></table><img"), std::string::npos) << what;
  }
  std::string prometheus = OddRendered(Format::kPrometheus, doc);
  if (!prometheus.empty()) {
    EXPECT_EQ(FirstRawByte(prometheus, "\n\t"), "") << what << " prometheus";
    EXPECT_FALSE(StartsAForgedLine(prometheus)) << what << " prometheus";
  }
  std::string csv = OddRendered(Format::kCsv, doc);
  if (!csv.empty()) {
    // Field by field (RFC 4180): none that starts as a formula unless it is a number.
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (std::size_t i = 0; i < csv.size(); ++i) {
      char c = csv[i];
      if (quoted) {
        if (c == '"' && i + 1 < csv.size() && csv[i + 1] == '"') {
          fields.back() += c;
          ++i;
        } else if (c == '"') {
          quoted = false;
        } else {
          fields.back() += c;
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',' || c == '\n') {
        fields.emplace_back();
      } else if (c != '\r') {
        fields.back() += c;
      }
    }
    for (const std::string& f : fields) {
      if (f.empty() || std::string("=+-@\t\r").find(f.front()) == std::string::npos) continue;
      char* end = nullptr;
      std::strtod(f.c_str(), &end);
      EXPECT_EQ(*end, '\0') << what << " csv: a formula cell: " << text::EscapeControlChars(f);
    }
  }
}

TEST(OddBytesTest, ReportsInEveryFormat) {
  for (const char* fixture :
       {"golden/reports/run.json", "golden/reports/check.json", "golden/reports/crashsim.json",
        "golden/reports/workloads.json", "golden/reports/concurrency.json"}) {
    ExpectNothingRaw(HostileReport(fixture), fixture);
  }
  // The test reaches the neutralising: the probe's reason starts with "-".
  std::string csv = OddRendered(Format::kCsv, HostileReport("golden/reports/run.json"));
  EXPECT_NE(csv.find(",\"'-/tmp/odd"), std::string::npos) << csv;
}

TEST(OddBytesTest, JsonKeepsTheExactString) {
  model::Report r = HostileReport("golden/reports/run.json");
  std::string json = OddRendered(Format::kJson, r);
  // JSON escapes C0 controls itself; it keeps the rest of the exact string (C1 and DEL are
  // characters a JSON string may hold as they are).
  for (char c : json) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20 && c != '\n');
  Result<model::Report> back = codec::FromJson(json);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->targets.front().path, kOdd);
  EXPECT_EQ(back->context.host, "=host " + kOdd);
}

TEST(OddBytesTest, ComparisonDiffAndSummary) {
  explain::Comparison c;
  c.context = HostileReport("golden/reports/run.json").context;
  c.targets = {testing_support::PathWith(kOdd, 1, 1, 1),
               testing_support::PathWith(kOdd + "/b", 8, 1, 1)};
  c.verdicts = explain::CompareVerdicts(c.targets);
  ExpectNothingRaw(c, "comparison");

  model::Report a = HostileReport("golden/reports/run.json"),
                b = HostileReport("golden/reports/crashsim.json");
  b.context.host = "-other " + kOdd;
  Result<explain::Diff> d = explain::DiffReports(a, b, kOdd + ".a.json", kOdd + ".b.json", {});
  ASSERT_TRUE(d.ok()) << d.status().message();
  ExpectNothingRaw(*d, "diff");

  explain::Summary summary;
  summary.rows = explain::RowsFromReport(a, kOdd + ".json");
  std::vector<explain::SummaryRow> more =
      explain::RowsFromReport(HostileReport("golden/reports/check.json"), "+f");
  summary.rows.insert(summary.rows.end(), more.begin(), more.end());
  ExpectNothingRaw(summary, "summary");
}

// Item 7: a command durprobe suggests names the path as one shell word.
TEST(OddBytesTest, SuggestedCommandsQuoteThePath) {
  model::Report r = HostileReport("golden/reports/run.json");
  std::string quoted = text::ShellQuote(kOdd);
  ASSERT_EQ(quoted.front(), '\'');
  bool found = false;
  for (const model::Target& t : r.targets) {
    ASSERT_TRUE(t.summary.has_value());
    for (const std::string& text : {t.summary->next_step}) {
      if (text.find("durprobe ") == std::string::npos) continue;
      EXPECT_NE(text.find(quoted), std::string::npos) << text::EscapeControlChars(text);
      found = true;
    }
    for (const model::PathAdvice& a : t.advice) {
      if (a.evidence.find("run `durprobe") == std::string::npos) continue;
      EXPECT_NE(a.evidence.find(quoted + "`"), std::string::npos)
          << text::EscapeControlChars(a.evidence);
      found = true;
    }
  }
  EXPECT_TRUE(found) << "no suggested command in the fixture";
}

}  // namespace
}  // namespace durprobe::output
