// `durprobe watch --json`'s document (schema durprobe.watch/1; its keys in docs/json.md).
#pragma once

#include <nlohmann/json.hpp>

#include "model/watch.h"

namespace durprobe::codec {

nlohmann::json ToJson(const model::WatchReport& report);

}  // namespace durprobe::codec
