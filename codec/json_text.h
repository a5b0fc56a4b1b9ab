// A report's JSON text parsed, before any of it is read as a report: refused when nested too
// deep for the walks of its tree, when malformed or truncated (with the byte), and when an object
// gives a key twice (which nlohmann would keep the last of, silently).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "platform/status.h"

namespace durprobe::codec {

// Parses a report's text; malformed or truncated JSON gives a message with the byte offset.
Result<nlohmann::json> ParseJsonText(const std::string& text);

}  // namespace durprobe::codec
