#include "model/labels.h"

#include <fmt/format.h>

#include "text/units.h"

namespace durprobe::model {

std::string ProbeLabel(const probes::ProbeSpec& spec) {
  if (spec.primitive == probes::Primitive::kDirFsync) {
    return fmt::format("{} {}", probes::NameOf(spec.primitive), probes::NameOf(spec.pattern));
  }
  std::string label = fmt::format("{} {} {}", probes::NameOf(spec.primitive),
                                  probes::NameOf(spec.pattern), SizeLabel(spec));
  return label + RhythmLabel(spec);
}

std::string RhythmLabel(const probes::ProbeSpec& spec) {
  if (spec.paced_per_sec > 0) return fmt::format(" at {}/s", spec.paced_per_sec);
  if (spec.work_us > 0 && spec.work_round_trips > 0) {
    return fmt::format(" +{} us work ({} trips)", spec.work_us, spec.work_round_trips);
  }
  if (spec.work_us > 0) return fmt::format(" +{} us work", spec.work_us);
  return {};
}

std::string SizeLabel(const probes::ProbeSpec& spec) {
  if (spec.primitive == probes::Primitive::kDirFsync) return "-";
  if (spec.writes_per_op == 1) return text::FormatBytes(spec.write_size);
  return fmt::format("{}x{}", spec.writes_per_op, text::FormatBytes(spec.write_size));
}

std::string ConcurrencyLabel(const probes::ConcurrencySpec& c) {
  return fmt::format("{} writers {} {} {}", c.writers, probes::NameOf(c.mode),
                     probes::NameOf(c.primitive), text::FormatBytes(c.write_size));
}

std::string ReasonWords(const Unfinished& u) {
  switch (u.reason) {
    case UnfinishedReason::kBudget:
      return "the budget ran out";
    case UnfinishedReason::kInterrupted:
      return std::string(NameOf(u.reason));
  }
  return "";
}

}  // namespace durprobe::model
