#include "probes/probe_result.h"

#include "platform/enum_table.h"

namespace durprobe::probes {

Outcome OutcomeOf(const Status& s) {
  if (s.unsupported()) return Outcome::kUnsupported;
  if (s.kind() == Status::Kind::kInterrupted) return Outcome::kInterrupted;
  return Outcome::kError;
}

constexpr platform::TextRow<Outcome> kOutcomeNames[] = {
    {Outcome::kOk, "ok"},
    {Outcome::kUnsupported, "unsupported"},
    {Outcome::kError, "error"},
    {Outcome::kInterrupted, "interrupted"},
};
static_assert(platform::OneRowPerValue(kOutcomeNames, kLastOutcome), "one name per Outcome");

std::string_view NameOf(Outcome o) { return platform::TextIn(kOutcomeNames, o); }

}  // namespace durprobe::probes
