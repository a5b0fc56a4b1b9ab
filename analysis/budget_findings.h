// A run whose budget ran out before some of its items (run/deadline.h) says so once per path,
// with what is missing and how slow the syncs it did measure were, so a short report is never
// read as a complete one.
#pragma once

#include "model/report.h"

namespace durprobe::analysis {

// Adds one `budget_spent` warn finding when target.unfinished lists items the budget left out.
void AddBudgetFindings(model::Target& target);

// Adds one `too_few_operations` info finding naming each measured probe whose operations cannot
// support a confidence interval (probes::CiSupported: 20 operations over 0.5 s of timing), with
// its count and why: its share of the budget ended first, or the device is too slow for 20
// operations in 0.5 s. Such a probe prints its count instead of an interval and is not
// converged.
void AddTooFewOperationsFindings(model::Target& target);

}  // namespace durprobe::analysis
