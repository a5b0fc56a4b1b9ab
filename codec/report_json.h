// The JSON report (schema durprobe.report/1). Key names are a contract: extend, never rename.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "model/report.h"

namespace durprobe::codec {

nlohmann::json ToJson(const probes::LatencySummary& s);
nlohmann::json ToJson(const probes::ProbeResult& r);
nlohmann::json ToJson(const probes::OpCostResult& r);
nlohmann::json ToJson(const model::Context& c);
nlohmann::json ToJson(const model::Target& t);
nlohmann::json ToJson(const model::Report& report);

// Pretty-printed, newline-terminated; any invalid UTF-8 left in a string is replaced, never thrown.
std::string DumpJson(const nlohmann::json& doc);

// Pretty-printed, newline-terminated.
void WriteJson(const model::Report& report, std::ostream& out);

}  // namespace durprobe::codec
