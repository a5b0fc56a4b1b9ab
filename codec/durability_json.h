// targets[].durability in durprobe.report/1, both directions (docs/json.md).
#pragma once

#include <nlohmann/json.hpp>

#include "codec/json_fields.h"
#include "model/durability.h"

namespace durprobe::codec {

nlohmann::json ToJson(const model::Durability& d);
model::Durability ReadDurability(const JsonFields& f);

}  // namespace durprobe::codec
