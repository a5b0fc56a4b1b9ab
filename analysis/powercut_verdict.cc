#include "analysis/powercut_verdict.h"

#include <fmt/format.h>

#include <cstdint>

#include "model/finding_codes.h"
#include "text/units.h"

namespace durprobe::analysis {

model::PowercutVerdict PowercutVerdictOf(const model::PowercutEvidence& e) {
  const bool sound = e.mode != "sqlite" || e.integrity_check == "ok";
  return e.present > 0 && e.Lost() == 0 && sound ? model::PowercutVerdict::kPassed
                                                 : model::PowercutVerdict::kFailed;
}

std::string PowercutContradiction(const model::PowercutEvidence& e) {
  if (e.acknowledged == 0) return "no acknowledged record: no test was run";
  std::uint64_t sum = 0;
  for (std::uint64_t count : {e.overwritten, e.in_flight, e.present, e.missing, e.torn}) {
    if (count > UINT64_MAX - sum) return "the record counts overflow";
    sum += count;
  }
  if (sum != e.acknowledged) {
    return fmt::format(
        "the counts do not add up: overwritten {} + in_flight {} + present {} + missing {} + "
        "torn {} is not acknowledged {}",
        e.overwritten, e.in_flight, e.present, e.missing, e.torn, e.acknowledged);
  }
  if (e.file_missing && e.present > 0) {
    return fmt::format("file_missing, yet {} records present", e.present);
  }
  const model::PowercutVerdict counted = PowercutVerdictOf(e);
  if (e.verdict != counted) {
    return fmt::format(
        "its verdict is {}, but its counts say {} ({} of {} read back present, {} "
        "lost{})",
        model::NameOf(e.verdict), model::NameOf(counted), e.present, e.Checked(), e.Lost(),
        e.mode == "sqlite" ? ", integrity_check " + e.integrity_check : "");
  }
  return "";
}

std::string PowercutMismatch(const model::PowercutEvidence& e, const platform::MountInfo& m) {
  if (e.fstype != m.fstype) {
    return fmt::format("the test ran on {}, this path is on {}", e.fstype, m.fstype);
  }
  if (!m.device) return "this path's block device is not identified";
  const platform::DeviceInfo& d = *m.device;
  if (!e.device_serial.empty() && !d.serial.empty()) {
    if (e.device_serial == d.serial) return "";
    return fmt::format("the test ran on the disk with serial {}, this path's has {}",
                       e.device_serial, d.serial);
  }
  if (e.disk == d.disk && e.device_model == d.model) return "";
  return fmt::format("the test ran on {} ({}), this path is on {} ({})", e.disk,
                     e.device_model.empty() ? "no model" : e.device_model, d.disk,
                     d.model.empty() ? "no model" : d.model);
}

std::string PowercutNoReboot(const model::PowercutEvidence& e) {
  const std::optional<bool> rebooted = e.Rebooted();
  if (rebooted == true || PowercutVerdictOf(e) != model::PowercutVerdict::kPassed) return "";
  if (rebooted == false) {
    return "the machine did not boot again between the write and the verify (the same boot id): "
           "the records went through no power cut of this machine";
  }
  return "the evidence does not show a reboot between the write and the verify (no boot id "
         "kept): no power cut of this machine is shown";
}

void ApplyPowercutEvidence(model::Target& target, const model::PowercutEvidence& e) {
  std::string why = target.mount ? PowercutMismatch(e, *target.mount)
                                 : std::string("this path's mount is not identified");
  if (why.empty()) why = PowercutNoReboot(e);
  if (why.empty()) {
    target.powercut = e;
    return;
  }
  target.findings.push_back(
      {model::Severity::kInfo, model::codes::kPowercutEvidenceIgnored,
       fmt::format("power-cut evidence of run {} ignored: {}", e.run_id, why)});
}

std::string PowercutLayerReason(const model::PowercutEvidence& e) {
  if (PowercutVerdictOf(e) == model::PowercutVerdict::kPassed) {
    return fmt::format(
        "power-cut verified: {} records, {} (run {}, {})", e.Checked(), e.date, e.run_id,
        e.mode == "sqlite" ? fmt::format("SQLite {}/{}", e.journal_mode, e.synchronous)
                           : e.primitive);
  }
  return fmt::format(
      "power-cut test failed: {} of {} acknowledged records lost ({} missing, "
      "{} torn), {} (run {})",
      e.Lost(), e.Checked(), e.missing, e.torn, e.date, e.run_id);
}

}  // namespace durprobe::analysis
