// The one XML escaper, for every XML document durprobe writes (the HTML page and its SVG plots,
// JUnit): every string that comes from a report (paths, mount options, messages, host names)
// goes through it, so the document stays well-formed XML whatever bytes the report holds.
#pragma once

#include <string>
#include <string_view>

namespace durprobe::text {

// Character data and attribute values: & < > " as entities and ' as `apostrophe` (the entity
// the document wants: "&#39;" in HTML, "&apos;" in JUnit); control characters other than tab,
// newline and carriage return (not allowed in XML 1.0) dropped, and DEL and the C1 controls
// (U+0080 to U+009F: HTML parse errors, and commands to a terminal showing the page) too;
// invalid UTF-8 replaced by U+FFFD.
std::string EscapeXml(std::string_view text, std::string_view apostrophe);

}  // namespace durprobe::text
