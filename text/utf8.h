// Text that JSON can carry. A path on Linux is any bytes but '/' and NUL; JSON strings must be
// UTF-8 (nlohmann's dump throws type_error 316 otherwise). Every document durprobe writes is made
// valid (invalid bytes replaced by U+FFFD), and a path-valued field whose bytes were not valid
// UTF-8 gets a sibling "<key>_bytes" holding its exact bytes in lower-case hex (docs/json.md).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace durprobe::text {

// Length of the well-formed UTF-8 sequence at text[i] (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 when there is none. i < text.size().
std::size_t Utf8SequenceAt(std::string_view text, std::size_t i);
bool IsValidUtf8(std::string_view text);
// Each byte that does not start a well-formed UTF-8 sequence becomes U+FFFD.
std::string ToValidUtf8(std::string_view text);
// "2f746d70" for "/tmp".
std::string HexBytes(std::string_view bytes);

// obj[key] = path made valid; obj[key + "_bytes"] = HexBytes(path) when it was not.
void PutPath(nlohmann::json& obj, const std::string& key, const std::string& path);
// The same for a list of paths: "<key>_bytes" is a list of the same length, hex for each path
// that was not valid UTF-8 and null for the others, present only when one was not.
void PutPaths(nlohmann::json& obj, const std::string& key, const std::vector<std::string>& paths);

// Whether EscapeControlChars keeps newline and tab (a whole console document, whose lines and
// columns the formatter made) or escapes them too (one value: a cell, a path, a message).
enum class LineBreaks { kEscape, kKeep };

// How text from outside (a path, a saved report, an errno message) is shown on a terminal, so
// none of its bytes can move the cursor, retitle the window, ring the bell or start a line of
// its own: newline, carriage return and tab as \n, \r and \t, other C0 controls and DEL as
// \xNN, the C1 controls (U+0080 to U+009F) and the bidirectional overrides (U+202A to U+202E,
// U+2066 to U+2069) as \uNNNN, each byte of invalid UTF-8 as \xNN, everything else (printable
// UTF-8, backslash included) as it is.
std::string EscapeControlChars(std::string_view text, LineBreaks breaks = LineBreaks::kEscape);

// Replaces invalid UTF-8 in every string value and key of a document, so any dump of it succeeds.
void MakeValidUtf8(nlohmann::json& doc);

}  // namespace durprobe::text
