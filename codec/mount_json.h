// targets[].mount in the JSON report. The contract keys (fstype, source, mount_point, options,
// bind, device {name, rotational, write_cache}) never change; the rest extends them.
#pragma once

#include <nlohmann/json.hpp>

#include "platform/mount_info.h"

namespace durprobe::codec {

// Unknown values are null, never false or 0: "not known here" must not read as "no".
nlohmann::json ToJson(const platform::MountInfo& m);
nlohmann::json ToJson(const platform::DeviceInfo& d);

}  // namespace durprobe::codec
