// Reports from tests/fixtures/diff, read with the typed reader, and their diff.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "codec/json_reader.h"
#include "explain/diff_analysis.h"
#include "tests/fixtures.h"

namespace durprobe::testing_support {

inline model::Report LoadDiffFixture(const std::string& name) {
  Result<model::Report> r = codec::FromJson(ReadFixture("diff/" + name));
  EXPECT_TRUE(r.ok()) << name << ": " << r.status().message();
  return r.ok() ? *r : model::Report{};
}

inline explain::Diff DiffFixtures(const std::string& a, const std::string& b,
                                  const explain::PathChoice& choice = {}) {
  Result<explain::Diff> d =
      explain::DiffReports(LoadDiffFixture(a), LoadDiffFixture(b), a, b, choice);
  EXPECT_TRUE(d.ok()) << d.status().message();
  return d.ok() ? *d : explain::Diff{};
}

inline bool ListsDifference(const explain::Diff& d, const std::string& key) {
  for (const explain::Difference& x : d.differences) {
    if (x.key == key) return true;
  }
  return false;
}

}  // namespace durprobe::testing_support
