#include "render/console/powercut_console.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "text/shell_quote.h"
#include "text/utf8.h"

namespace durprobe::render::console {

std::string PowercutWitnessBanner(const std::string& listening, const std::string& log,
                                  std::size_t runs, std::uint64_t acks, std::size_t clients) {
  return fmt::format(
      "powercut witness: listening on {}, log {} ({} runs, {} acknowledgements reloaded)\n"
      "  every acknowledgement is synced to the log before the writer hears it was counted; "
      "at most {} connections at once\n",
      listening, text::EscapeControlChars(log), runs, acks, clients);
}

std::string PowercutWitnessStopped(std::uint64_t acks_logged, std::uint64_t syncs,
                                   std::uint64_t connections) {
  return fmt::format(
      "powercut witness: stopped; {} acknowledgements logged in {} log syncs from {} "
      "connections\n",
      acks_logged, syncs, connections);
}

std::string PowercutWriteBanner(const std::string& run_id, const std::string& host,
                                const std::string& path, const std::string& directory,
                                const std::string& witness, std::string_view primitive,
                                std::uint64_t record_size) {
  return fmt::format(
      "powercut write: run {} on {}: {}-byte records made durable with {} in {}, each "
      "acknowledged to the witness {} only after its sync or commit returned\n"
      "  now cut the power of this machine (a PDU or IPMI power off, or pull the plug; `echo o > "
      "/proc/sysrq-trigger` is weaker: it does not pull the drive's power mid-write, "
      "docs/powercut.md)\n"
      "  after the reboot run:\n"
      "    durprobe powercut verify {} --witness {} --run-id {} --save-evidence "
      "powercut-{}.json\n",
      run_id, host, record_size, primitive, directory, witness, text::ShellQuote(path), witness,
      run_id, run_id);
}

std::string PowercutWriteStopped(const probes::PowercutWriteResult& r, const std::string& run_id) {
  std::string why;
  switch (r.stop) {
    case probes::WriterStop::kDuration:
      why = "its time ran out";
      break;
    case probes::WriterStop::kInterrupted:
      why = "interrupted";
      break;
    case probes::WriterStop::kWitnessGone:
    case probes::WriterStop::kWitnessSlow:
    case probes::WriterStop::kIoError:
      why = r.reason;
      break;
  }
  return fmt::format(
      "powercut write: run {} stopped ({}): {} records synced, {} acknowledged to the witness, "
      "{} logged by it; {:.0f} synced records/s\n",
      run_id, why, r.synced, r.acked, r.receipts, r.RecordsPerSecond());
}

std::string PowercutVerifyText(const model::PowercutEvidence& e) {
  std::string out = fmt::format(
      "powercut verify: run {} from {} (witness {}), {} on {}{} ({}{})\n"
      "  acknowledged {} ({} overwritten by later records), present {}, missing {}, torn {}\n",
      e.run_id, e.host, e.witness,
      e.mode == "sqlite" ? fmt::format("SQLite {}/{}", e.journal_mode, e.synchronous) : e.primitive,
      e.fstype,
      e.mount_options.empty() ? "" : fmt::format(" -o {}", fmt::join(e.mount_options, ",")),
      e.disk.empty() ? "device unknown" : e.disk,
      e.device_model.empty() ? "" : ", " + e.device_model, e.acknowledged, e.overwritten, e.present,
      e.missing, e.torn);
  if (e.in_flight > 0) {
    out += fmt::format(
        "  in flight {}: the slot holds the writer's next record there, never acknowledged, whole "
        "or part written (the write under way at the cut): not a loss\n",
        e.in_flight);
  }
  if (e.file_missing) {
    out += fmt::format(
        "  the {} is not on the disk, though the run's directory is: the device lost its "
        "creation, and every acknowledged record with it\n",
        e.mode == "sqlite" ? "database" : "records file");
  }
  if (e.mode == "sqlite") out += fmt::format("  integrity_check: {}\n", e.integrity_check);
  const std::optional<bool> rebooted = e.Rebooted();
  out += rebooted == true    ? "  reboot: yes, the machine booted again since the write\n"
         : rebooted == false ? "  reboot: none since the write (the same boot id): this was no "
                               "power cut of this machine, and --evidence will not count a pass\n"
                             : "  reboot: not known (no boot id kept with the records)\n";
  if (!e.lost.empty()) {
    out += fmt::format("  lost records (first {}): {}\n", e.lost.size(), fmt::join(e.lost, ", "));
  }
  out += e.verdict == model::PowercutVerdict::kPassed
             ? fmt::format(
                   "  verdict: passed: every record acknowledged before the cut is on "
                   "the disk ({} of {} read back)\n",
                   e.present, e.Checked())
             : fmt::format(
                   "  verdict: failed: {} acknowledged records lost: this device or a "
                   "layer above it acknowledged syncs it did not keep\n",
                   e.Lost());
  return out;
}

}  // namespace durprobe::render::console
