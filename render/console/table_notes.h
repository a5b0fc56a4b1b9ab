// The notes a console table collects as its rows are added, and how they are printed under it:
// each once, and those only --verbose prints (text::EveryNote) counted in one line otherwise.
#pragma once

#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace durprobe::render::console {

// Notes a table collects as its rows are added, printed under it.
struct TableNotes {
  std::vector<std::string> lines;    // each once
  bool any_short = false;            // a percentile was left out for too few operations
  bool any_missing = false;          // a SQLite row lacks the probes its prediction needs
  bool any_over_explained = false;   // a SQLite row's probes explain more than its commit time
  std::set<std::string> statements;  // the statement styles the SQLite rows ran
  bool cite_drift = false;           // the target has a latency_drift finding for notes to cite
  // Notes only --verbose prints (text::EveryNote), each under its topic: without it, one line
  // counts them per topic.
  std::vector<std::pair<std::string, std::string>> details;  // {topic, note}, each once
  void Add(std::string note);
  void AddDetail(std::string topic, std::string note);
};

// The notes' lines ("  note: ..."), with the details when out takes every note, else the count
// of those left out.
void PrintNoteLines(const TableNotes& notes, std::ostream& out);

}  // namespace durprobe::render::console
