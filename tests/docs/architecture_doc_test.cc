// docs/architecture.md stays true to the tree: every path it names in backticks exists (read
// from the top or from render/, as the page's tables name them), with
// "a.{h,cc}" standing for both files and "*" for any name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace durprobe {
namespace {

namespace fs = std::filesystem;

// The files a named path stands for: "a.{h,cc}" is a.h and a.cc.
std::vector<std::string> Expand(const std::string& path) {
  static const std::regex kBraces(R"((.*)\.\{([^}]*)\}$)");
  std::smatch m;
  if (!std::regex_match(path, m, kBraces)) return {path};
  std::vector<std::string> out;
  std::stringstream exts(m[2].str());
  for (std::string ext; std::getline(exts, ext, ',');) out.push_back(m[1].str() + "." + ext);
  return out;
}

// Whether a name with "*" in its last part matches a file in its folder.
bool GlobExists(const fs::path& path) {
  fs::path dir = path.parent_path();
  std::string pattern = path.filename().string();
  if (!fs::is_directory(dir)) return false;
  std::string re;
  for (char c : pattern)
    re += c == '*' ? std::string("[^/]*") : c == '.' ? "\\." : std::string(1, c);
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    if (std::regex_match(e.path().filename().string(), std::regex(re))) return true;
  }
  return false;
}

bool Exists(const fs::path& root, std::string name) {
  if (name.size() > 1 && name.back() == '/') name.pop_back();  // a folder
  for (const char* base : {"", "render/"}) {
    fs::path p = root / (base + name);
    if (name.find('*') != std::string::npos ? GlobExists(p) : fs::exists(p)) return true;
  }
  return false;
}

TEST(ArchitectureDocTest, EveryPathItNamesExists) {
  fs::path root = DURPROBE_SOURCE_DIR;
  std::ifstream in(root / "docs/architecture.md");
  ASSERT_TRUE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  std::string doc = text.str();
  static const std::regex kCode("`([^`\\s]+)`");
  int checked = 0;
  for (std::sregex_iterator it(doc.begin(), doc.end(), kCode), end; it != end; ++it) {
    std::string name = (*it)[1];
    // Paths only: a slash, no placeholder, not a schema name ("durprobe.report/1").
    if (name.find('/') == std::string::npos || name.find('<') != std::string::npos ||
        name.rfind("durprobe.", 0) == 0) {
      continue;
    }
    for (const std::string& file : Expand(name)) {
      EXPECT_TRUE(Exists(root, file))
          << "docs/architecture.md names " << name << ", which is not in the tree";
      ++checked;
    }
  }
  EXPECT_GT(checked, 40);
}

}  // namespace
}  // namespace durprobe
