// Helpers for tests that read the snapshots under tests/fixtures/.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "platform/platform.h"

namespace durprobe::testing_support {

inline std::string FixturePath(const std::string& relative) {
  return std::string(DURPROBE_SOURCE_DIR) + "/tests/fixtures/" + relative;
}

// The fixture's text; fails the test (and returns "") when it cannot be read.
inline std::string ReadFixture(const std::string& relative) {
  Result<std::string> text = platform::Default().ReadTextFile(FixturePath(relative), 1 << 20);
  EXPECT_TRUE(text.ok()) << text.status().message();
  return text.ok() ? *text : std::string();
}

}  // namespace durprobe::testing_support
