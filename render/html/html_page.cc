#include "render/html/html_page.h"

#include <fmt/format.h>

#include "render/html/html_text.h"

namespace durprobe::render::html {
namespace {

// Series colours from the Okabe-Ito palette (distinguishable with the common colour vision
// deficiencies); dark mode lightens them. Patterns, dashes and markers carry the same
// distinction for a grey print.
constexpr const char* kStyle = R"css(
:root { color-scheme: light dark; --bg: #ffffff; --fg: #1b1b1b; --muted: #5d5d5d; --grid: #e3e3e3;
  --panel: #f5f5f5; --ref: #6f6f6f; --c0: #0072b2; --c1: #d55e00; --c2: #009e73; --c3: #cc79a7;
  --c4: #e69f00; --c5: #56b4e9; --info: #dbe9f6; --warn: #fbe3b5; --fail: #f7c9c4; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #16181b; --fg: #e4e4e4; --muted: #a8a8a8; --grid: #33363b; --panel: #202328;
    --ref: #9a9a9a; --c0: #56a8e0; --c1: #ff8a3d; --c2: #2fc79a; --c3: #e59ac8; --c4: #f2bd3b;
    --c5: #8fd3ff; --info: #1f3347; --warn: #4a3a12; --fail: #52231f; }
}
body { background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, sans-serif;
  max-width: 980px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; border-bottom: 1px solid var(--grid); }
h3 { font-size: 1.05em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { text-align: left; padding: 2px 10px 2px 0; vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums;
  white-space: nowrap; }
thead th { border-bottom: 1px solid var(--muted); }
code, pre { font-family: ui-monospace, monospace; }
pre.command { background: var(--panel); padding: 8px; white-space: pre-wrap;
  word-break: break-all; }
p.note, figcaption, .muted { color: var(--muted); }
.banner { border: 2px solid var(--fg); padding: 6px 10px; margin: 0.6em 0; }
.summary { background: var(--panel); border-left: 4px solid var(--c0); padding: 4px 12px; }
.summary th { white-space: nowrap; color: var(--muted); font-weight: normal; }
tr.sev-info td.sev { background: var(--info); }
tr.sev-warn td.sev { background: var(--warn); }
tr.sev-fail td.sev { background: var(--fail); font-weight: bold; }
figure { margin: 1em 0; break-inside: avoid; page-break-inside: avoid; }
svg.plot { width: 100%; height: auto; max-width: 720px; display: block; }
svg.plot text { fill: var(--fg); font: 11px system-ui, sans-serif; }
svg.plot text.label, svg.plot text.group { font-weight: bold; }
svg.plot .grid line { stroke: var(--grid); stroke-width: 1; }
svg.plot .axis path { stroke: var(--fg); fill: none; }
svg.plot .series .line { fill: none; stroke: var(--c); stroke-width: 2; }
svg.plot .series .mark { fill: var(--c); stroke: var(--c); stroke-width: 1.5; }
svg.plot .series.ref { --c: var(--ref); }
svg.plot .s0, svg.plot .g0 { --c: var(--c0); } svg.plot .s1, svg.plot .g1 { --c: var(--c1); }
svg.plot .s2, svg.plot .g2 { --c: var(--c2); } svg.plot .s3, svg.plot .g3 { --c: var(--c3); }
svg.plot .s4, svg.plot .g4 { --c: var(--c4); } svg.plot .s5, svg.plot .g5 { --c: var(--c5); }
svg.plot pattern .bg { fill: var(--c); }
svg.plot pattern .hatch { stroke: var(--fg); stroke-width: 1.2; fill: var(--fg); opacity: 0.55; }
svg.plot rect.seg, svg.plot rect.swatch { stroke: var(--fg); stroke-width: 0.6; }
svg.plot text.inbar { paint-order: stroke; stroke: var(--bg); stroke-width: 3px; }
@media print {
  :root { --bg: #ffffff; --fg: #000000; --muted: #333333; --grid: #dddddd; --panel: #ffffff; }
  body { max-width: none; padding: 0; font-size: 11px; }
  h2 { break-before: auto; break-after: avoid; }
  pre.command { border: 1px solid #999999; }
}
)css";

}  // namespace

std::string PageStart(const std::string& title) {
  return fmt::format(
      "<!DOCTYPE html>\n"
      "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
      "<meta charset=\"utf-8\"/>\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'\"/>\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
      "<meta name=\"color-scheme\" content=\"light dark\"/>\n"
      "<meta name=\"generator\" content=\"durprobe\"/>\n"
      "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n",
      Escape(title), kStyle);
}

std::string PageEnd() { return "</body>\n</html>\n"; }

std::string Figure(const std::string& svg, const std::string& caption) {
  return fmt::format("<figure>\n{}<figcaption>{}</figcaption>\n</figure>\n", svg, caption);
}

std::string Row(const std::string& name, const std::string& value) {
  if (value.empty()) return "";
  return fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", Escape(name), Escape(value));
}

std::string ContextBlock(const model::Context& c, const std::string& source) {
  std::string out;
  if (c.interrupted) {
    out += fmt::format(
        "<p class=\"banner\">Interrupted (signal {}): this report holds what finished before "
        "the signal.</p>\n",
        c.interrupt_signal);
  }
  for (const std::string& w : BuildWarnings(c)) {
    out += fmt::format("<p class=\"banner\">Warning: {}</p>\n", Escape(w));
  }
  out += "<table class=\"context\">\n";
  out += Row("report file", source);
  out += Row("durprobe", c.durprobe_version);
  out += Row("command", c.command);
  out += Row("host", c.host);
  out += Row("OS", c.os + (c.kernel.empty() ? "" : " " + c.kernel) +
                       (c.machine.empty() ? "" : " (" + c.machine + ")"));
  out += Row("SQLite", c.sqlite_version);
  out += Row("build", c.build_type + (c.optimized ? "" : ", unoptimised") +
                          (c.assertions ? ", assertions on" : ""));
  out += Row("started", c.started_at);
  out += Row("LD_PRELOAD", c.ld_preload);
  out += "</table>\n";
  if (!c.command_line.empty()) {
    out += fmt::format("<p>Command line:</p>\n<pre class=\"command\"><code>{}</code></pre>\n",
                       Escape(c.command_line));
  }
  return out;
}

std::string FindingsTable(const std::vector<model::Finding>& findings) {
  if (findings.empty()) return "<p class=\"note\">No findings.</p>\n";
  std::string out =
      "<table class=\"findings\">\n<thead><tr><th>severity</th><th>code</th><th>finding</th>"
      "</tr></thead>\n<tbody>\n";
  for (const model::Finding& f : findings) {
    std::string_view sev = NameOf(f.severity);
    const char* symbol = f.severity == model::Severity::kFail   ? "\u2716 "
                         : f.severity == model::Severity::kWarn ? "\u26a0 "
                                                                : "\u2139 ";
    out += fmt::format(
        "<tr class=\"sev-{0}\"><td class=\"sev\">{1}{0}</td><td><code>{2}</code></td>"
        "<td>{3}</td></tr>\n",
        sev, symbol, Escape(f.code), Escape(f.message));
  }
  return out + "</tbody>\n</table>\n";
}

}  // namespace durprobe::render::html
