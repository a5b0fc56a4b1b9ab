// What compare's page and a page of several saved reports share: the targets' probes overlaid.
// It only formats: every number comes from the report model.
#pragma once

#include <string>
#include <vector>

#include "model/report.h"

namespace durprobe::render::html {

// For every probe measured on more than one of targets: one CDF with a line per target ("[1]
// PATH", "[2] PATH"), on the same axes. Plot ids are "<id_prefix>-cdf-<n>".
std::string CdfOverlays(const std::vector<model::Target>& targets, const std::string& id_prefix);

}  // namespace durprobe::render::html
