// What a power-cut test proves (docs/powercut.md): its verdict from its counts, whether its
// evidence file speaks for a path (the same device and filesystem), and what it does to the
// path's durability (analysis/durability_model.cc reads Target::powercut).
#pragma once

#include <string>
#include <string_view>

#include "model/powercut.h"
#include "model/report.h"

namespace durprobe::analysis {


// Passed when every acknowledged record was read back whole and at least one was (a test whose
// every acknowledged record was overwritten read nothing back), failed otherwise.
model::PowercutVerdict PowercutVerdictOf(const model::PowercutEvidence& e);

// Why the counts of e contradict each other or its verdict, or "" when they agree: acknowledged
// is overwritten + present + missing + torn (summed without wrapping), a test acknowledged at
// least one record, a file missing left nothing present, and the verdict is the counts'
// (PowercutVerdictOf). verify writes none of these; a file that says them was made by hand.
std::string PowercutContradiction(const model::PowercutEvidence& e);

// Why the evidence does not speak for a path on mount m, or "" when it does: the same
// filesystem type, and the same disk (its serial where both have one, else its model and name).
std::string PowercutMismatch(const model::PowercutEvidence& e, const platform::MountInfo& m);

// Why a passed test is no power-cut test of this machine, or "": the machine did not boot again
// between the write and the verify (the same boot id), or the evidence keeps no boot id. A failed
// test needs no reboot to count: records acknowledged and then missing are lost either way.
std::string PowercutNoReboot(const model::PowercutEvidence& e);

// Sets target.powercut when e speaks for the target's mount and, passed, went through a reboot;
// otherwise adds the info finding powercut_evidence_ignored saying why. Call before
// AssessDurability.
void ApplyPowercutEvidence(model::Target& target, const model::PowercutEvidence& e);

// The device layer's reason a passed test gives it: "power-cut verified: N records, DATE".
std::string PowercutLayerReason(const model::PowercutEvidence& e);

}  // namespace durprobe::analysis
