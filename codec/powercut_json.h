// The power-cut evidence (model/powercut.h) as JSON, both directions: the evidence file
// `durprobe powercut verify --save-evidence` writes (schema durprobe.powercut/1, its keys in
// docs/json.md) and `targets[].powercut` in a report, the same object without the schema.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "codec/json_fields.h"
#include "model/powercut.h"
#include "platform/status.h"

namespace durprobe::codec {

nlohmann::json ToJson(const model::PowercutEvidence& e);
model::PowercutEvidence ReadPowercut(const JsonFields& object);
// The evidence file: the object with its schema name.
std::string PowercutEvidenceDocument(const model::PowercutEvidence& e);
// Reads an evidence file's text; InvalidArgument naming what is wrong: not JSON, a key given
// twice, another schema, a key of the wrong type, a count that is not a whole number from 0 to
// 2^53, or counts that contradict each other or the file's verdict (PowercutContradiction).
Result<model::PowercutEvidence> ParsePowercutEvidence(std::string_view text);

}  // namespace durprobe::codec
