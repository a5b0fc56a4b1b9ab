#include "output/output.h"

#include <fmt/format.h>

#include <cerrno>
#include <map>
#include <set>
#include <sstream>

#include "explain/compare_analysis.h"
#include "explain/diff_analysis.h"
#include "explain/summary.h"
#include "render/html/html_reporter.h"
#include "text/line_width.h"

namespace durprobe::output {
namespace {

std::string DirectoryOf(const std::string& path) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// The names of the standard output: "-" and the device files that alias it.
bool IsStdout(const std::string& path) {
  return path == "-" || path == "/dev/stdout" || path == "/dev/fd/1" || path == "/proc/self/fd/1";
}

// One name per file however it is spelt ("r.json", "./r.json", a link to it): the real
// directory of the file reached and its name.
std::string IdentityOf(platform::Platform& platform, const std::string& file) {
  std::size_t slash = file.rfind('/');
  std::string name = slash == std::string::npos ? file : file.substr(slash + 1);
  Result<std::string> dir = platform.RealPath(DirectoryOf(file));
  return (dir.ok() ? *dir : DirectoryOf(file)) + "/" + name;
}

// FIFO destinations, opened by CheckDestinations and held until their document is written,
// by the path as given. Checking a FIFO by opening and closing it would hand its reader an end
// of file; holding it open keeps the reader waiting for the report, and the write never waits
// for a reader.
std::map<std::string, platform::FileHandle>& HeldFifos() {
  static std::map<std::string, platform::FileHandle> held;
  return held;
}

// Ok for anything but a FIFO; for a FIFO, its write end opened now and held, or why not.
Status HoldIfFifo(platform::Platform& platform, const std::string& path, const std::string& file) {
  if (platform.KindOf(file) != platform::PathKind::kOther) return Status::Ok();
  if (HeldFifos().count(path) > 0) return Status::Ok();
  Result<platform::FileHandle> writer = platform.OpenFifoWriter(file);
  if (!writer.ok() && writer.status().kind() == Status::Kind::kInvalidArgument) {
    return Status::Ok();  // a device such as /dev/null: written in place
  }
  if (!writer.ok() && writer.status().error_number() == ENXIO) {
    return Status::InvalidArgument(
        "is a FIFO that no process is reading: start its reader first (cat FIFO &), or name a "
        "file");
  }
  if (!writer.ok()) return writer.status();
  HeldFifos().emplace(path, std::move(*writer));
  return Status::Ok();
}

}  // namespace

bool UsesStdout(const std::vector<Destination>& outputs) {
  for (const Destination& d : outputs) {
    if (IsStdout(d.path)) return true;
  }
  return false;
}

std::string OptionNaming(const Destination& d) {
  return d.option.empty() ? OptionOf(d.format) : d.option;
}

Status CheckDestinations(platform::Platform& platform, const std::vector<Destination>& outputs) {
  std::set<std::string> seen;
  int to_stdout = 0;
  for (const Destination& d : outputs) {
    std::string what = fmt::format("{} {}", OptionNaming(d), d.path);
    if (d.path.empty()) return Status::InvalidArgument(OptionNaming(d) + " needs a file name");
    if (IsStdout(d.path)) {
      if (++to_stdout > 1) {
        return Status::InvalidArgument(what + ": only one report can go to stdout");
      }
      continue;  // written to the standard output stream, whatever it is
    }
    std::string dir = DirectoryOf(d.path);
    if (platform.KindOf(dir) == platform::PathKind::kMissing) {
      return Status::InvalidArgument(fmt::format("{}: directory {} does not exist", what, dir));
    }
    // The same walk the final write takes: a symlink another user owns is refused now, before
    // anything is measured, and again when the report is written (it may be planted meanwhile).
    Result<platform::DestinationFile> file = platform.ResolveDestination(d.path);
    if (!file.ok() && file.status().error_number() == ENOENT &&
        platform.KindOfNoFollow(d.path) == platform::PathKind::kSymlink) {
      return Status::InvalidArgument(fmt::format(
          "{}: is a symlink to a file that does not exist ({})", what, file.status().message()));
    }
    if (!file.ok()) return Status::InvalidArgument(what + ": " + file.status().message());
    if (file->through_symlink && file->kind == platform::PathKind::kMissing) {
      return Status::InvalidArgument(
          fmt::format("{}: is a symlink to a file that does not exist ({})", what, file->file));
    }
    if (!seen.insert(IdentityOf(platform, file->file)).second) {
      return Status::InvalidArgument(what + ": the same file is named by two options");
    }
    if (file->kind == platform::PathKind::kDirectory) {
      return Status::InvalidArgument(what + ": is a directory, not a file");
    }
    Status writable = platform.CheckWritableDirectory(DirectoryOf(file->file));
    if (!writable.ok()) {
      return Status::InvalidArgument(
          fmt::format("{}: cannot write there: {}", what, writable.message()));
    }
    if (Status fifo = HoldIfFifo(platform, d.path, file->file); !fifo.ok()) {
      return Status::InvalidArgument(fmt::format("{}: {}", what, fifo.message()));
    }
  }
  return Status::Ok();
}

template <typename Document>
Result<std::string> Render(Format format, const Document& doc, std::size_t width,
                           std::size_t long_line_wrap, bool every_note) {
  if (!Renders(format, DocumentOf(doc))) {
    return Status::Unsupported(
        fmt::format("the {} format has no view of {}", NameOf(format), NounOf(DocumentOf(doc))));
  }
  std::unique_ptr<render::Reporter> reporter = MakeReporter(format);
  std::ostringstream text;
  text::SetLineWidth(text, width);
  text::SetLongLineWrap(text, long_line_wrap);
  text::SetEveryNote(text, every_note);
  Status s = reporter->Write(doc, text);
  if (!s.ok()) return s;
  return text.str();
}

template <typename Document>
Status WriteDestinations(platform::Platform& platform, const std::vector<Destination>& outputs,
                         const Document& doc, std::ostream& out) {
  Status first;
  for (const Destination& d : outputs) {
    bool to_stdout = IsStdout(d.path);
    // A file gets every note; the terminal what the command line asked for.
    Result<std::string> text =
        Render(d.format, doc, to_stdout ? text::LineWidth(out) : 0,
               to_stdout ? text::LongLineWrap(out) : 0, !to_stdout || text::EveryNote(out));
    Status s = text.status();
    if (s.ok() && to_stdout) {
      out << *text;
      out.flush();
      if (!out) s = Status::Error("the standard output refused the report (closed, or full?)");
    } else if (s.ok()) {
      auto held = HeldFifos().find(d.path);
      if (held != HeldFifos().end()) {
        s = platform.WriteAll(held->second.get(), text->data(), text->size());
        Status closed = held->second.Close();
        if (s.ok()) s = closed;
        HeldFifos().erase(held);
      } else {
        s = platform.ReplaceFileAtomically(d.path, *text);
      }
    }
    if (!s.ok() && first.ok()) {
      first = Status::Error(fmt::format("{} {}: {}", OptionNaming(d), d.path, s.message()));
    }
  }
  return first;
}

template Result<std::string> Render(Format, const model::Report&, std::size_t, std::size_t, bool);
template Result<std::string> Render(Format, const explain::Comparison&, std::size_t, std::size_t,
                                    bool);
template Result<std::string> Render(Format, const explain::Diff&, std::size_t, std::size_t, bool);
template Result<std::string> Render(Format, const explain::Summary&, std::size_t, std::size_t,
                                    bool);
template Result<std::string> Render(Format, const render::html::SavedReports&, std::size_t,
                                    std::size_t, bool);
template Status WriteDestinations(platform::Platform&, const std::vector<Destination>&,
                                  const model::Report&, std::ostream&);
template Status WriteDestinations(platform::Platform&, const std::vector<Destination>&,
                                  const explain::Comparison&, std::ostream&);
template Status WriteDestinations(platform::Platform&, const std::vector<Destination>&,
                                  const explain::Diff&, std::ostream&);
template Status WriteDestinations(platform::Platform&, const std::vector<Destination>&,
                                  const explain::Summary&, std::ostream&);
template Status WriteDestinations(platform::Platform&, const std::vector<Destination>&,
                                  const render::html::SavedReports&, std::ostream&);
template Status WriteDestinations(platform::Platform&, const std::vector<Destination>&,
                                  const model::PowercutEvidence&, std::ostream&);
template Result<std::string> Render(Format, const model::PowercutEvidence&, std::size_t,
                                    std::size_t, bool);

}  // namespace durprobe::output
