// The output formats, described once: one row per format with its name, its option and help,
// the documents it renders and the factory of its reporter (output/formats.cc). Everything that
// lists formats reads the rows: the options each command offers and their help
// (cli/standard_options.cc), the destinations in messages (output.cc), the golden test. The
// table sits in the driver, above every render/<format>/ folder, because the factory names each
// format's reporter; the Reporter interface (render/reporter.h) knows none of them. A new format
// is its render/<name>/ folder, an enumerator here and its row in formats.cc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "render/reporter.h"

namespace durprobe::output {

// In the order of formats.cc's rows, which is the order a command lists its options in.
enum class Format { kConsole, kJson, kCsv, kMarkdown, kHtml, kJunit, kPrometheus };
// The last enumerator: formats.cc's static_assert counts the rows up to it, so a format added
// after it must move this too, and one added before it fails to build without its row.
inline constexpr Format kLastFormat = Format::kPrometheus;
inline constexpr std::size_t kFormatCount = static_cast<std::size_t>(kLastFormat) + 1;

// The documents a Reporter writes (one Write overload each), as bits of FormatRow::documents.
enum class Document : std::uint8_t {
  kReport = 1,            // run, probe, sqlite, check, inspect, crashsim
  kComparison = 2,        // compare
  kDiff = 4,              // diff
  kSummary = 8,           // summarize
  kSavedReports = 16,     // report
  kPowercutEvidence = 32  // powercut verify
};
inline constexpr Document DocumentOf(const model::Report&) { return Document::kReport; }
inline constexpr Document DocumentOf(const explain::Comparison&) { return Document::kComparison; }
inline constexpr Document DocumentOf(const explain::Diff&) { return Document::kDiff; }
inline constexpr Document DocumentOf(const explain::Summary&) { return Document::kSummary; }
inline constexpr Document DocumentOf(const render::html::SavedReports&) {
  return Document::kSavedReports;
}
inline constexpr Document DocumentOf(const model::PowercutEvidence&) {
  return Document::kPowercutEvidence;
}
// The document as a message names it: "a comparison", "saved reports".
std::string_view NounOf(Document document);

struct FormatRow {
  Format format;
  std::string_view name;          // "json": the option's long name, the golden files' extension
  std::string_view short_option;  // "-j", or "" for none
  // The option's help; "" when the format has no option (the console: stdout's report when no
  // destination takes stdout).
  std::string_view help;
  std::uint8_t documents;  // the Document bits it renders
  std::unique_ptr<render::Reporter> (*make)();
  // It writes one entry per check rule (JUnit's testcases) and nothing else, so only a command
  // that evaluates rules (check) offers it: elsewhere it would write an empty suite.
  bool rules_only = false;
};

// One row per Format, in the enum's order.
std::span<const FormatRow> FormatTable();
const FormatRow& RowOf(Format format);
std::string_view NameOf(Format format);  // "console", "json", "csv", ...
// The option that names a destination of this format ("--json"), for the command line and
// messages.
std::string OptionOf(Format format);
bool Renders(Format format, Document document);
// The formats with an option that render the document, in the table's order: the destinations
// a command writing it offers.
std::vector<Format> FormatsWriting(Document document);

// The reporter for a format.
std::unique_ptr<render::Reporter> MakeReporter(Format format);

}  // namespace durprobe::output
