// A saved report as `durprobe report` and `diff` read it: its summary decided when it was saved
// before summaries existed (cli/saved_reports.cc). For the tests that render saved fixtures.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "codec/json_reader.h"
#include "explain/path_summary.h"
#include "tests/fixtures.h"

namespace durprobe::testing_support {

inline report::Report SavedReport(const std::string& relative) {
  Result<report::Report> r = report::FromJson(ReadFixture(relative));
  EXPECT_TRUE(r.ok()) << relative << ": " << r.status().message();
  if (!r.ok()) return report::Report{};
  for (report::Target& t : r->targets) {
    if (!t.summary) report::AddPathSummary(t);
  }
  return *r;
}

}  // namespace durprobe::testing_support
