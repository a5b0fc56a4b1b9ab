// The report keys explain/ names as text (each cause's differences, the identity keys diff drops)
// held to the keys the JSON report really writes: a key renamed in codec/ fails here instead of
// leaving a cause without its evidence.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "codec/mount_json.h"
#include "explain/cause_table.h"
#include "explain/causes.h"
#include "tests/fixtures.h"

namespace durprobe::explain {
namespace {

// Every object key as its dotted path from the top ("targets.mount.device.fua"), arrays passed
// through, intermediate objects included ("targets.mount.device").
void CollectKeys(const nlohmann::json& j, const std::string& prefix, std::set<std::string>& out) {
  if (j.is_array()) {
    for (const nlohmann::json& item : j) CollectKeys(item, prefix, out);
    return;
  }
  if (!j.is_object()) return;
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string path = prefix.empty() ? it.key() : prefix + "." + it.key();
    out.insert(path);
    CollectKeys(it.value(), path, out);
  }
}

std::set<std::string> GoldenReportKeys() {
  std::set<std::string> keys;
  std::size_t reports = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(testing_support::FixturePath("golden/reports"))) {
    if (entry.path().extension() != ".json") continue;
    std::string text =
        testing_support::ReadFixture("golden/reports/" + entry.path().filename().string());
    CollectKeys(nlohmann::json::parse(text), "", keys);
    ++reports;
  }
  EXPECT_GE(reports, 10u) << "the golden reports were not found";
  return keys;
}

// A key path ends with name at a dot: "mount.fstype" is "targets.mount.fstype"'s.
bool EndsAtDot(const std::string& path, const std::string& name) {
  return path == name || (path.size() > name.size() && path.ends_with(name) &&
                          path[path.size() - name.size() - 1] == '.');
}

TEST(CauseKeysTest, EveryCausesKeysAreInAGoldenReport) {
  const std::set<std::string> keys = GoldenReportKeys();
  for (const Knowledge& k : KnowledgeTable()) {
    for (const char* key : k.keys) {
      bool found = std::any_of(keys.begin(), keys.end(),
                               [&](const std::string& path) { return EndsAtDot(path, key); });
      EXPECT_TRUE(found) << k.key << "'s key " << key << " is in no golden report";
    }
  }
}

TEST(CauseKeysTest, EveryIdentityKeyIsOneTheReportWrites) {
  std::set<std::string> keys = GoldenReportKeys();
  // No golden report is on an overlay: its layers' keys come from a mount that has one.
  platform::MountInfo overlay;
  overlay.fstype = "overlay";
  overlay.overlay =
      platform::OverlayInfo{{"/l1", "/l2"}, "/u", "/w", false, true, "ext4", "/var", "/dev/sda1"};
  CollectKeys(nlohmann::json{{"mount", codec::ToJson(overlay)}}, "targets", keys);
  for (std::string_view ending : IdentityKeyEndings()) {
    ASSERT_EQ(ending.front(), '.') << ending;
    std::string name(ending.substr(1));
    bool found = std::any_of(keys.begin(), keys.end(),
                             [&](const std::string& path) { return EndsAtDot(path, name); });
    EXPECT_TRUE(found) << "identity key " << name << " is not a key the report writes";
  }
}

}  // namespace
}  // namespace durprobe::explain
