#include "probes/powercut_append.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "probes/powercut_record.h"
#include "probes/primitive_ops.h"

namespace durprobe::probes {

std::string AppendRoundName(std::uint64_t round) { return fmt::format("records.{}", round); }

Result<PowercutWriteResult> AppendRecords(platform::Platform& platform, int dir_fd,
                                          const std::string& where, int socket,
                                          const std::string& run_id,
                                          const PowercutWriterOptions& options) {
  const PrimitiveOps& ops = OpsOf(options.primitive);
  const std::uint64_t slots = options.file_bytes / options.record_size;
  platform::FileHandle file;
  std::uint64_t kept_from = 0;  // the oldest round not yet removed
  return AckRecords(platform, socket, run_id, options,
                    [&](std::uint64_t seq, std::span<const std::uint8_t> record,
                        std::uint64_t receipts) -> Status {
                      const std::uint64_t round = seq / slots;
                      if (seq % slots == 0) {
                        platform::OpenFlags flags = ops.open;
                        flags.create = true;
                        flags.exclusive = true;
                        Result<platform::FileHandle> f =
                            platform.Open(where + "/" + AppendRoundName(round), flags);
                        if (!f.ok()) return f.status();
                        file = std::move(*f);
                        // The new file's name is durable before a record in it is acknowledged.
                        if (Status s = platform.SyncDirectory(where); !s.ok()) return s;
                      }
                      // A round the witness no longer needs: it holds a record two rounds on
                      // (receipts counts the acks it logged, in order), so verify reads no further
                      // back than round + 1.
                      while (kept_from + 2 <= round && receipts > (kept_from + 2) * slots) {
                        (void)platform.UnlinkAt(dir_fd, AppendRoundName(kept_from), false);
                        ++kept_from;
                      }
                      const std::uint64_t at = seq % slots * record.size();
                      const int fd = file.get();
                      Status s = ops.write == WritePath::kPWriteDsync
                                     ? platform.PWriteDsync(fd, record.data(), record.size(), at)
                                     : platform.PWrite(fd, record.data(), record.size(), at);
                      if (s.ok() && ops.sync) s = platform.Sync(fd, *ops.sync, at, record.size());
                      return s;
                    });
}

Result<AppendReadBack> ReadBackAppended(platform::Platform& platform, const WitnessRun& run,
                                        const OpenRound& open_round) {
  AppendReadBack out;
  const std::uint64_t highest = HighestAcked(run);
  const std::uint64_t last = highest / run.slots;
  const std::uint64_t first = last == 0 ? 0 : last - 1;
  std::vector<std::uint8_t> slot(run.record_size);
  std::uint64_t open_round_no = UINT64_MAX;
  platform::OwnedHandle file;
  for (const WitnessAck& a : run.acks) {
    const std::uint64_t round = a.sequence / run.slots;
    if (round < first) {
      CountOverwritten(out.tally, 1);
      continue;
    }
    if (round != open_round_no) {
      Result<platform::OwnedHandle> f = open_round(round);
      if (!f.ok()) return f.status();
      file = std::move(*f);
      open_round_no = round;
      if (!file.handle.valid()) ++out.rounds_missing;
    }
    if (!file.handle.valid()) {
      CountRecord(out.tally, a.sequence, false, false);
      continue;
    }
    Result<std::size_t> got = platform.PRead(file.handle.get(), slot.data(), slot.size(),
                                             a.sequence % run.slots * run.record_size);
    if (!got.ok()) return got.status();
    std::fill(slot.begin() + static_cast<std::ptrdiff_t>(*got), slot.end(), 0);
    CountState(out.tally, a.sequence, CheckRecord(slot, a.sequence, run.run_id, a.checksum));
  }
  return out;
}

}  // namespace durprobe::probes
