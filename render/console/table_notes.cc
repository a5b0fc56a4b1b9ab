#include "render/console/table_notes.h"

#include <fmt/format.h>

#include <algorithm>

#include "text/line_width.h"
#include "text/utf8.h"

namespace durprobe::render::console {

void TableNotes::Add(std::string note) {
  if (std::find(lines.begin(), lines.end(), note) == lines.end()) lines.push_back(std::move(note));
}

void TableNotes::AddDetail(std::string topic, std::string note) {
  std::pair<std::string, std::string> entry(std::move(topic), std::move(note));
  if (std::find(details.begin(), details.end(), entry) == details.end()) {
    details.push_back(std::move(entry));
  }
}

void PrintNoteLines(const TableNotes& notes, std::ostream& out) {
  for (const std::string& n : notes.lines) {
    fmt::print(out, "  note: {}\n", text::EscapeControlChars(n));
  }
  if (notes.details.empty()) return;
  if (text::EveryNote(out)) {
    for (const auto& detail : notes.details) {
      fmt::print(out, "  note: {}\n", text::EscapeControlChars(detail.second));
    }
    return;
  }
  std::vector<std::pair<std::string, int>> counts;  // per topic, in the order first seen
  for (const auto& detail : notes.details) {
    // Not a structured binding: clang 14 (the sanitizer build) cannot capture one in a lambda.
    const std::string& topic = detail.first;
    auto it =
        std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == topic; });
    if (it == counts.end()) {
      counts.emplace_back(topic, 1);
    } else {
      ++it->second;
    }
  }
  std::string topics;
  for (const auto& [topic, count] : counts) {
    topics += fmt::format("{}{} {}", topics.empty() ? "" : ", ", count, topic);
  }
  fmt::print(out, "  note: {} more with --verbose ({})\n",
             notes.details.size() == 1 ? std::string("one note")
                                       : fmt::format("{} notes", notes.details.size()),
             text::EscapeControlChars(topics));
}

}  // namespace durprobe::render::console
