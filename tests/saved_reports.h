// A saved report as `durprobe report` and `diff` read it: its summary decided when it was saved
// before summaries existed (cli/saved_reports.cc). For the tests that render saved fixtures.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "codec/json_reader.h"
#include "explain/path_summary.h"
#include "tests/fixtures.h"

namespace durprobe::testing_support {

inline model::Report SavedReport(const std::string& relative) {
  Result<model::Report> r = codec::FromJson(ReadFixture(relative));
  EXPECT_TRUE(r.ok()) << relative << ": " << r.status().message();
  if (!r.ok()) return model::Report{};
  for (model::Target& t : r->targets) {
    if (!t.summary) explain::AddPathSummary(t);
  }
  return *r;
}

}  // namespace durprobe::testing_support
