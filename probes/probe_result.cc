#include "probes/probe_result.h"

namespace durprobe::probes {

Outcome OutcomeOf(const Status& s) {
  if (s.unsupported()) return Outcome::kUnsupported;
  if (s.kind() == Status::Kind::kInterrupted) return Outcome::kInterrupted;
  return Outcome::kError;
}

std::string_view NameOf(Outcome o) {
  switch (o) {
    case Outcome::kOk:
      return "ok";
    case Outcome::kUnsupported:
      return "unsupported";
    case Outcome::kError:
      return "error";
    case Outcome::kInterrupted:
      return "interrupted";
  }
  return "error";
}

}  // namespace durprobe::probes
