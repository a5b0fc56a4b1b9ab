// `durprobe probe --pg`: pg_test_fsync's table (its sections, its method names in its order)
// filled with durprobe's figures: ops/s, the time per operation pg_test_fsync prints, and the
// percentiles it does not. Formats only.
#pragma once

#include <ostream>

#include "model/report.h"

namespace durprobe::render::console {

// True when the run was `probe --pg` (context.options.pg_test_fsync).
bool PgTestFsyncRun(const model::Context& context);
// The table for one path, from its probes; nothing when it has none of them.
void PrintPgTestFsync(const model::Target& target, std::ostream& out);

}  // namespace durprobe::render::console
