// The project's source files and the room each sits in (docs/architecture.md), for the tests that
// hold the rooms to their rules: the layering test (includes) and the namespace test.
#pragma once

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace durprobe::testing_support {

// Top-level folders that hold code but are no room: the tests, which may include any room, and
// the scripts' benchmarks.
inline bool IsOutsideTheRooms(const std::string& folder) {
  return folder == "tests" || folder == "scripts" || folder.rfind("build", 0) == 0 ||
         folder.rfind(".", 0) == 0;
}

// Every source file of the project outside the tests, as "ROOM/.../NAME", in a stable order.
inline std::vector<std::string> ProjectFiles(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (const fs::directory_entry& top : fs::directory_iterator(root)) {
    if (!top.is_directory() || IsOutsideTheRooms(top.path().filename().string())) continue;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(top.path())) {
      std::string ext = entry.path().extension();
      if (ext == ".h" || ext == ".cc") files.push_back(fs::relative(entry.path(), root).string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// A file's room: its top-level folder, or render/FORMAT for a file in a format's folder.
inline std::string RoomOf(const std::string& file) {
  std::filesystem::path p(file);
  auto part = p.begin();
  std::string room = part->string();
  if (room == "render" && std::distance(p.begin(), p.end()) > 2) room += "/" + (++part)->string();
  return room;
}

}  // namespace durprobe::testing_support
