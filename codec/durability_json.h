// targets[].durability in durprobe.report/1, both directions (docs/json.md).
#pragma once

#include <nlohmann/json.hpp>

#include "codec/json_fields.h"
#include "model/durability.h"

namespace durprobe::report {

nlohmann::json ToJson(const Durability& d);
Durability ReadDurability(const JsonFields& f);

}  // namespace durprobe::report
