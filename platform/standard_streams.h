// The standard output as a destination that can fail: a report lost to `>&-` or `> /dev/full`
// is an error at the end of the command, not exit 0.
#pragma once

#include "platform/status.h"

namespace durprobe::platform {

// Puts /dev/null, opened read-only, on each of descriptors 0, 1 and 2 that is closed (`>&-`):
// otherwise the first file durprobe opens would take that number and the console report, or an
// error line, would be written into it. Writes to such a stdout fail (EBADF), so the loss is
// seen at the end (FinishStandardOutput); reads of such a stdin see an empty file.
void ReserveClosedStandardDescriptors();

// Flushes and closes the standard output (std::cout and C's stdout): Ok when every byte written
// there was taken, otherwise the error with its errno ("standard output: No space left on
// device"). Call once, as the command ends; nothing may be printed to stdout afterwards.
Status FinishStandardOutput();

}  // namespace durprobe::platform
