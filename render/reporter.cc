#include "render/reporter.h"

namespace durprobe::report {

Status Reporter::Write(const Comparison&, std::ostream&) const {
  return Status::Unsupported("this format has no view of a comparison");
}

Status Reporter::Write(const Diff&, std::ostream&) const {
  return Status::Unsupported("this format has no view of a diff");
}

Status Reporter::Write(const Summary&, std::ostream&) const {
  return Status::Unsupported("this format has no view of a summary");
}

Status Reporter::Write(const SavedReports&, std::ostream&) const {
  return Status::Unsupported("this format has no view of saved reports");
}

}  // namespace durprobe::report
