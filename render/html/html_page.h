// The page around the HTML reporter's sections: head with the style sheet (light, dark and
// print), and the tags that close it. Well-formed XML as well as HTML5, so a strict parser can
// check every page; no script, and a Content-Security-Policy that forbids loading anything.
#pragma once

#include <string>

#include "model/report.h"

namespace durprobe::render::html {

std::string PageStart(const std::string& title);
std::string PageEnd();

// The context block: tool, host, OS, SQLite, build, start time, the exact command line; build
// warnings and an interruption as notes above it. source names the file it was read from.
std::string ContextBlock(const model::Context& context, const std::string& source);

// A table of findings, severity as a word and a symbol as well as a colour.
std::string FindingsTable(const std::vector<model::Finding>& findings);

// A plot in a <figure> with its caption (caption is markup: escape what comes from a report).
std::string Figure(const std::string& svg, const std::string& caption);

// One <tr> with a header cell and a value cell (both escaped); nothing when value is empty.
std::string Row(const std::string& name, const std::string& value);

}  // namespace durprobe::render::html
