// Reports from tests/fixtures/diff, read with the typed reader, and their diff.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "codec/json_reader.h"
#include "explain/diff_analysis.h"
#include "tests/fixtures.h"

namespace durprobe::testing_support {

inline report::Report LoadDiffFixture(const std::string& name) {
  Result<report::Report> r = report::FromJson(ReadFixture("diff/" + name));
  EXPECT_TRUE(r.ok()) << name << ": " << r.status().message();
  return r.ok() ? *r : report::Report{};
}

inline report::Diff DiffFixtures(const std::string& a, const std::string& b,
                                 const report::PathChoice& choice = {}) {
  Result<report::Diff> d =
      report::DiffReports(LoadDiffFixture(a), LoadDiffFixture(b), a, b, choice);
  EXPECT_TRUE(d.ok()) << d.status().message();
  return d.ok() ? *d : report::Diff{};
}

inline bool ListsDifference(const report::Diff& d, const std::string& key) {
  for (const report::Difference& x : d.differences) {
    if (x.key == key) return true;
  }
  return false;
}

}  // namespace durprobe::testing_support
