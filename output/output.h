// The emit path, the same for every format and every subcommand: where each document goes. The
// destinations are checked before anything is measured, and each file is written atomically
// (a temporary file in the same directory, then a rename), so a failed or interrupted run never
// leaves half a report behind.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "output/formats.h"
#include "platform/platform.h"
#include "platform/status.h"

namespace durprobe::output {

struct Destination {
  Format format = Format::kJson;
  std::string path;  // a file, or "-" for stdout
  // The option that named it, when not the format's own (powercut verify's --save-evidence is
  // JSON): what messages about it say.
  std::string option;
};
// The option messages name d by: d.option, else the format's (--json).
std::string OptionNaming(const Destination& d);

// Ok when every destination can be written: at most one is stdout ("-", /dev/stdout, /dev/fd/1,
// /proc/self/fd/1), no file is named twice however it is spelt (r.json and ./r.json, a symlink
// and its target), no symlink dangles, each file's directory exists and is writable, and the
// path is not a directory. Otherwise InvalidArgument naming the option and the problem:
// "--json /nope/r.json: directory /nope does not exist". A symlink the running user or root
// owns is written through: its target gets the report and the link stays; one owned by another
// user is refused (platform::ResolveDestination), here and again when the file is written.
Status CheckDestinations(platform::Platform& platform, const std::vector<Destination>& outputs);

// Whether a destination takes stdout, by any of its names (then no console report goes there).
bool UsesStdout(const std::vector<Destination>& outputs);

// Formats doc for every destination: "-" (and /dev/stdout, /dev/fd/1, /proc/self/fd/1) to out,
// a file atomically; out refusing the text (its state after the flush) is a failure. Tries every
// destination and returns the first failure, naming the option and file.
template <typename Document>
Status WriteDestinations(platform::Platform& platform, const std::vector<Destination>& outputs,
                         const Document& doc, std::ostream& out);

// The text of doc in one format (what WriteDestinations writes); the console's fitted to width
// columns (0: unlimited; WriteDestinations passes stdout's LineWidth for "-"), its long finding
// lines broken at long_line_wrap (LongLineWrap, likewise), every note printed or only those that
// change how a figure is read (every_note: a file's, or the terminal's with --verbose;
// text::EveryNote). Unsupported, naming the format and the document, when the format's row does
// not list the document.
template <typename Document>
Result<std::string> Render(Format format, const Document& doc, std::size_t width = 0,
                           std::size_t long_line_wrap = 0, bool every_note = true);

}  // namespace durprobe::output
