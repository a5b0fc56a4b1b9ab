// cli/command_line.h: the command line the report records, "durprobe" for argv[0] and each word
// shell-quoted where a shell would split or expand it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/command_line.h"

namespace durprobe {
namespace {

std::string Recorded(std::vector<std::string> words) {
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  cli::SetCommandLine(static_cast<int>(argv.size()), argv.data());
  return cli::CommandLine();
}

TEST(CommandLineCliTest, ArgvZeroIsDurprobeAndPlainWordsStayBare) {
  EXPECT_EQ(Recorded({"./build/durprobe", "probe", "--json", "-", "--budget=2s", "/mnt/a,b@c%d+e"}),
            "durprobe probe --json - --budget=2s /mnt/a,b@c%d+e");
}

TEST(CommandLineCliTest, OtherWordsAreSingleQuoted) {
  EXPECT_EQ(Recorded({"durprobe", "run", "/mnt/my disk", "$HOME", "", "a*"}),
            "durprobe run '/mnt/my disk' '$HOME' '' 'a*'");
  EXPECT_EQ(Recorded({"durprobe", "it's"}), "durprobe 'it'\\''s'");
}

}  // namespace
}  // namespace durprobe
