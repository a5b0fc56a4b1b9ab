// Times explain::AddPathSummary (summary + advice) and the console and HTML
// renders of a saved report, in process, to show what deciding and printing the summary costs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <vector>

#include "codec/json_reader.h"
#include "explain/path_summary.h"
#include "output/output.h"
#include "render/html/html_reporter.h"

namespace codec = durprobe::codec;
namespace explain = durprobe::explain;
namespace model = durprobe::model;
namespace output = durprobe::output;
using Clock = std::chrono::steady_clock;

int main(int argc, char** argv) {
  std::ifstream in(argv[1]);
  std::stringstream text;
  text << in.rdbuf();
  auto read = codec::FromJson(text.str());
  if (!read.ok()) return 2;
  model::Report base = *read;
  for (model::Target& t : base.targets) {
    t.summary.reset();
    t.advice.clear();
  }
  int rounds = argc > 2 ? std::atoi(argv[2]) : 200;
  const int batch = 10;
  model::Report with = base;
  explain::AddPathSummaries(with);
  std::vector<std::pair<const char*, std::function<void()>>> cases = {
      {"decide summary + advice (copy + AddPathSummaries)",
       [&] {
         model::Report r = base;
         explain::AddPathSummaries(r);
       }},
      {"copy of the report alone",
       [&] {
         model::Report r = base;
         (void)r;
       }},
      {"console render without summary",
       [&] { (void)output::Render(output::Format::kConsole, base); }},
      {"console render with summary + advice",
       [&] { (void)output::Render(output::Format::kConsole, with); }},
      {"HTML render without summary", [&] { (void)output::Render(output::Format::kHtml, base); }},
      {"HTML render with summary + advice",
       [&] { (void)output::Render(output::Format::kHtml, with); }}};
  std::vector<std::vector<double>> samples(cases.size());
  for (int r = 0; r < rounds; ++r) {
    for (std::size_t c = 0; c < cases.size(); ++c) {
      auto start = Clock::now();
      for (int i = 0; i < batch; ++i) cases[c].second();
      samples[c].push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count() /
                           batch);
    }
  }
  for (std::size_t c = 0; c < cases.size(); ++c) {
    std::vector<double>& v = samples[c];
    std::sort(v.begin(), v.end());
    std::printf("%-52s median %9.1f us  p10 %9.1f  p90 %9.1f  (%d rounds x %d)\n", cases[c].first,
                v[v.size() / 2], v[v.size() / 10], v[v.size() * 9 / 10], rounds, batch);
  }
  return 0;
}
