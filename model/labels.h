// The one way a probe is named in text: "fdatasync overwrite 4 KiB", "dir_fsync create"; and why
// an item was not run, in words.
#pragma once

#include <string>

#include "model/report.h"
#include "probes/concurrency.h"
#include "probes/probe_spec.h"

namespace durprobe::model {

// A paced probe ends " at 150/s", one with work between operations " +200 us work".
std::string ProbeLabel(const probes::ProbeSpec& spec);
// How the operations follow each other when not back to back: " at 150/s" (paced), " +200 us work"
// (the work before each one), or nothing; so two probes that differ only there stay
// apart in every table.
std::string RhythmLabel(const probes::ProbeSpec& spec);
// What one operation writes: "8 KiB", or "2x8 KiB" for two writes then one sync; "-" for
// dir_fsync, which writes no data.
std::string SizeLabel(const probes::ProbeSpec& spec);
// A concurrency cell: "16 writers threads fdatasync 4 KiB".
std::string ConcurrencyLabel(const probes::ConcurrencySpec& spec);
// "interrupted", or "the budget ran out".
std::string ReasonWords(const Unfinished& u);

}  // namespace durprobe::model
