// diff's differences in how and where the two reports were made, which can explain a gap: the
// context and the mounts, compared as the JSON report writes them. Pure: reads the model.
#pragma once

#include <string>
#include <vector>

#include "model/report.h"

namespace durprobe::explain {

struct Difference {
  std::string key;
  std::string a, b;
};

// The context as the JSON writes it (subcommand, options such as quick, budget and selection,
// SQLite, kernel, ...), host name, start time and command line left out; and the mounts, keys
// prefixed with `prefix`.
std::vector<Difference> ContextDifferences(const model::Context& a, const model::Context& b);
std::vector<Difference> MountDifferences(const model::Target& a, const model::Target& b,
                                         const std::string& prefix);
// Comparisons that mislead: a quick run against a full one (context.options.quick).
std::vector<std::string> DiffWarnings(const model::Context& a, const model::Context& b);
// A pair whose device showed two states on either side (targets[].states): the levels of each
// side, and the probes both sides measured in the slow state, each state's figures side by side,
// since the rows compare the mixtures. Empty when neither side had states.
std::string StateWarning(const model::Target& a, const model::Target& b);

}  // namespace durprobe::explain
