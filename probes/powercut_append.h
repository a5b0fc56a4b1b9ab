// `durprobe powercut write --mode append` (docs/powercut.md): records appended to files that grow
// (never preallocated), each record synced with the chosen primitive before it is acknowledged,
// so a device or filesystem that loses the allocation of what a sync covered (the file's new
// size, its new blocks, the file itself) loses acknowledged records. Round r is the file
// `records.r`, created new (its directory synced) when record r * slots comes, holding records
// r * slots to (r + 1) * slots - 1 in order. The writer deletes round q only once the witness's
// receipt shows it holds a record of round q + 2, so verify, which reads the rounds R - 1 and R
// of the highest sequence the witness holds (R = highest / slots), never expects a round the
// writer removed. Measures; prints nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "platform/owned_files.h"
#include "platform/platform.h"
#include "probes/powercut_protocol.h"
#include "probes/powercut_reader.h"
#include "probes/powercut_writer.h"

namespace durprobe::probes {

// The mode word in HELLO: "append:<primitive>".
inline constexpr char kAppendModeWord[] = "append";

// "records.<round>".
std::string AppendRoundName(std::uint64_t round);

// The append mode's writer: rounds of files in the run's directory (dir_fd, and where, a path
// that names it, for the primitive's open flags), records acked on socket (AckRecords).
Result<PowercutWriteResult> AppendRecords(platform::Platform& platform, int dir_fd,
                                          const std::string& where, int socket,
                                          const std::string& run_id,
                                          const PowercutWriterOptions& options);

struct AppendReadBack {
  PowercutTally tally;
  std::uint64_t rounds_missing = 0;  // rounds expected and not on the disk
};

// Opens a round's file, checked; an empty handle when it is not there.
using OpenRound = std::function<Result<platform::OwnedHandle>(std::uint64_t round)>;

// Reads back every ack of run in the rounds R - 1 and R (R = the highest sequence / slots): each
// at its offset in its round's file, present, missing (past the end, zeros, the file gone) or
// torn. Acks of older rounds count as overwritten (the writer may have removed them).
Result<AppendReadBack> ReadBackAppended(platform::Platform& platform, const WitnessRun& run,
                                        const OpenRound& open_round);

}  // namespace durprobe::probes
