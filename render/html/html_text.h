// Text for the HTML reporter: every string that comes from a report (paths, mount options,
// messages, host names) goes through Escape before it reaches the page, so the page stays
// well-formed XML (a strict parser checks it) whatever bytes the report holds.
#pragma once

#include <string>
#include <string_view>

namespace durprobe::render::html {

// The XML escaper (text/xml_escape.h) with the apostrophe HTML wants.
std::string Escape(std::string_view text);

// A number for an SVG coordinate: fixed, at most two decimals, never NaN or infinite (0 then),
// so no attribute ever makes a browser log "Expected number".
std::string Coord(double v);

}  // namespace durprobe::render::html
