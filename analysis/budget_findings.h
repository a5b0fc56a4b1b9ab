// A run whose budget ran out before some of its items (run/deadline.h) says so once per path,
// with what is missing and how slow the syncs it did measure were, so a short report is never
// read as a complete one.
#pragma once

#include "model/report.h"

namespace durprobe::report {

// Adds one `budget_spent` warn finding when target.unfinished lists items the budget left out.
void AddBudgetFindings(Target& target);

}  // namespace durprobe::report
