// What the report reader's section readers share (codec/json_reader.h holds the contract;
// each section's reader sits beside its writer: mount_json_reader.h, sqlite_json_reader.h,
// sqlite_workloads_json_reader.h). Each reads from a JsonFields and records its first error there.
#pragma once

#include <initializer_list>
#include <map>
#include <string>

#include "codec/json_fields.h"
#include "model/report.h"
#include "probes/probe_result.h"
#include "probes/statistics.h"

namespace durprobe::codec {

// Name -> value for an enumeration the reader reads, built from the writer's own NameOf.
template <typename E>
std::map<std::string, E> NamesOf(std::initializer_list<E> values) {
  std::map<std::string, E> names;
  for (E v : values) names.emplace(std::string(NameOf(v)), v);
  return names;
}

// "status": ok (also when absent), unsupported, error, interrupted.
probes::Outcome ReadOutcome(const JsonFields& f);

// A latency_ns object; `required` lists the percentiles the contract (docs/json.md) requires.
probes::LatencySummary ReadLatency(const JsonFields& f,
                                   std::initializer_list<const char*> required = {});

// A probe's states[] (probes[].states) as the figures of probe `index` per device state.
model::ProbeStates ReadProbeStates(const JsonFields& probe, std::size_t index);

}  // namespace durprobe::codec
