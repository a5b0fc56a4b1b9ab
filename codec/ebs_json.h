// targets[].ebs both ways: an EBS volume's statistics over the run (platform/ebs_stats.h), the
// change of each counter between before and after it. Key names are a contract (docs/json.md).
#pragma once

#include <nlohmann/json.hpp>

#include "codec/json_fields.h"
#include "platform/ebs_stats.h"

namespace durprobe::codec {

nlohmann::json ToJson(const platform::EbsStats& ebs);
platform::EbsStats ReadEbs(const JsonFields& f);

}  // namespace durprobe::codec
