// The check presets, each a Policy built from a published recommendation (docs/provisioning.md
// gives their sources).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gate/rules.h"
#include "platform/status.h"

namespace durprobe::gate {

// The presets: "etcd", "postgres-wal", "sqlite-app" (docs/provisioning.md gives their sources).
std::vector<std::string> PresetNames();
Result<Policy> Preset(std::string_view name);

}  // namespace durprobe::gate
