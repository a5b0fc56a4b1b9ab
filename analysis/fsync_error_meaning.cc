#include "analysis/fsync_error_meaning.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "model/finding_codes.h"

namespace durprobe::analysis {
namespace {

using probes::FaultKind;
using probes::PageContent;
using probes::Reporting;

bool DataFault(FaultKind f) { return f != FaultKind::kMetadata; }

std::string FsName(const probes::FsyncErrorsResult& r) {
  return r.fs + (r.fs_options.empty() ? "" : " -o " + r.fs_options);
}

}  // namespace

bool RetryUnsafe(const probes::FsyncErrorOutcome& o) {
  return o.status == probes::Outcome::kOk && DataFault(o.fault) &&
         o.reporting == Reporting::kReportedOnce && o.remounted != PageContent::kNew &&
         o.remounted != PageContent::kNotRead;
}

bool LostSilently(const probes::FsyncErrorOutcome& o) {
  if (o.status != probes::Outcome::kOk || !DataFault(o.fault)) return false;
  if (o.write != "ok" || o.first_sync != "ok") return false;
  return o.fault != FaultKind::kDataCheckpoint || o.remounted != PageContent::kNew;
}

std::string RetryMeaning(const probes::FsyncErrorOutcome& o) {
  if (o.status != probes::Outcome::kOk || !DataFault(o.fault)) return "";
  switch (o.reporting) {
    case Reporting::kNotReported:
      if (!LostSilently(o)) return "nothing to retry: the journal's copy was replayed";
      return "lost silently";
    case Reporting::kReportedEveryTime:
      return "safe: every retry failed";
    case Reporting::kReportedByWrite:
      return "the write failed: nothing to retry";
    case Reporting::kReportedOnce:
      if (RetryUnsafe(o)) {
        return fmt::format("unsafe: retry ok, page {} on disk", probes::NameOf(o.remounted));
      }
      return "retry wrote it";
    case Reporting::kUnknown:
      return "";
  }
  return "";
}

std::string TellingKernelLine(const std::vector<std::string>& lines) {
  for (const char* word : {"read-only", "shut", "Abort", "error", "Error"}) {
    for (const std::string& line : lines) {
      if (line.find(word) != std::string::npos) return line;
    }
  }
  return "";
}

std::vector<model::Finding> AssessFsyncErrors(model::Target& t) {
  std::vector<model::Finding> findings;
  for (probes::FsyncErrorsResult& r : t.fsync_errors) {
    std::vector<std::string> silent, unsafe;
    for (probes::FsyncErrorOutcome& o : r.outcomes) {
      o.retry = RetryMeaning(o);
      if (o.status != probes::Outcome::kOk || !DataFault(o.fault)) continue;
      const std::string what = fmt::format("{} {}", probes::NameOf(o.fault), o.sync);
      if (LostSilently(o)) silent.push_back(what);
      if (RetryUnsafe(o)) unsafe.push_back(what);
    }
    if (!silent.empty()) {
      findings.push_back(
          {model::Severity::kFail, model::codes::kFsyncErrorNotReported,
           fmt::format("on {} (kernel {}), a failed write of the file's data was not reported "
                       "by the sync after it ({}): the data is lost without a word",
                       FsName(r), r.kernel, fmt::join(silent, ", "))});
    }
    if (!unsafe.empty()) {
      findings.push_back(
          {model::Severity::kWarn, model::codes::kFsyncRetryUnsafe,
           fmt::format("on {} (kernel {}), a failed sync is reported once and the retry returns "
                       "success with the page never written ({}): never retry a failed fsync "
                       "and go on (PostgreSQL: keep data_sync_retry = off)",
                       FsName(r), r.kernel, fmt::join(unsafe, ", "))});
    }
  }
  return findings;
}

}  // namespace durprobe::analysis
