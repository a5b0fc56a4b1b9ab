// Text for the HTML reporter: every string that comes from a report (paths, mount options,
// messages, host names) goes through Escape before it reaches the page, so the page stays
// well-formed XML (a strict parser checks it) whatever bytes the report holds.
#pragma once

#include <string>
#include <string_view>

namespace durprobe::report::html {

// Character data and attribute values: & < > " ' as entities; control characters other than
// tab, newline and carriage return (not allowed in XML 1.0) dropped; invalid UTF-8 replaced by
// U+FFFD.
std::string Escape(std::string_view text);
// The same for any XML document (JUnit too), with the entity it wants for an apostrophe.
std::string EscapeXml(std::string_view text, std::string_view apostrophe);

// A number for an SVG coordinate: fixed, at most two decimals, never NaN or infinite (0 then),
// so no attribute ever makes a browser log "Expected number".
std::string Coord(double v);

}  // namespace durprobe::report::html
