#include "probes/fsync_error_result.h"

namespace durprobe::probes {

std::string_view NameOf(FaultKind kind) {
  switch (kind) {
    case FaultKind::kDataOnce:
      return "data_once";
    case FaultKind::kDataPersistent:
      return "data_persistent";
    case FaultKind::kDataDirect:
      return "data_direct";
    case FaultKind::kDataNoSpace:
      return "data_enospc";
    case FaultKind::kMetadata:
      return "metadata";
    case FaultKind::kDataAppend:
      return "data_append";
    case FaultKind::kDataCheckpoint:
      return "data_checkpoint";
  }
  return "";
}

std::string_view NameOf(Reporting r) {
  switch (r) {
    case Reporting::kReportedOnce:
      return "reported_once";
    case Reporting::kReportedEveryTime:
      return "reported_every_time";
    case Reporting::kNotReported:
      return "not_reported";
    case Reporting::kUnknown:
      return "unknown";
    case Reporting::kReportedByWrite:
      return "reported_by_write";
  }
  return "";
}

std::string_view NameOf(PageContent c) {
  switch (c) {
    case PageContent::kNew:
      return "new";
    case PageContent::kOld:
      return "old";
    case PageContent::kZeros:
      return "zeros";
    case PageContent::kOther:
      return "other";
    case PageContent::kUnreadable:
      return "unreadable";
    case PageContent::kNotRead:
      return "not_read";
    case PageContent::kMissing:
      return "missing";
  }
  return "";
}

std::string_view NameOf(FsState s) {
  switch (s) {
    case FsState::kAvailable:
      return "available";
    case FsState::kReadOnly:
      return "read_only";
    case FsState::kShutDown:
      return "shut_down";
    case FsState::kUnknown:
      return "unknown";
  }
  return "";
}

}  // namespace durprobe::probes
