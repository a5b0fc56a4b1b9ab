// The result of a power-cut test (`durprobe powercut verify`, docs/powercut.md): what the
// witness held, what the disk still had after the cut, on which device and filesystem. It is
// the evidence file (schema durprobe.powercut/1, codec/powercut_json.h) that run, check and
// inspect read with --evidence (analysis/powercut_verdict.h decides what it proves for a path).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace durprobe::model {

inline constexpr char kPowercutSchema[] = "durprobe.powercut/1";

// A power-cut test's verdict (analysis/powercut_verdict.h PowercutVerdictOf decides it).
enum class PowercutVerdict {
  kPassed,  // every acknowledged record read back whole, and at least one was
  kFailed,
};
inline constexpr PowercutVerdict kLastPowercutVerdict = PowercutVerdict::kFailed;
std::string_view NameOf(PowercutVerdict v);  // "passed", "failed"

struct PowercutEvidence {
  std::string run_id;
  std::string host;     // the writer's, as it said HELLO
  std::string witness;  // ADDR:PORT
  std::string date;     // verify's, ISO-8601
  std::string path;
  std::string mode;             // "file" or "sqlite"
  std::string primitive;        // file mode: fdatasync, fsync, odsync, ...
  std::string journal_mode;     // sqlite mode: WAL, DELETE, ...
  std::string synchronous;      // sqlite mode: FULL, NORMAL, ...
  std::string integrity_check;  // sqlite mode: integrity_check's first line ("ok")
  std::uint64_t record_size = 0;
  // The device and the filesystem the records were on (verify's view, after the cut).
  std::string device;  // "vda1"
  std::string disk;    // "vda"
  std::string device_model;
  std::string device_serial;
  std::string fstype;
  std::vector<std::string> mount_options;
  // The counts.
  std::uint64_t acknowledged = 0;
  std::uint64_t overwritten = 0;  // slots a later acknowledged record took: not read back
  std::uint64_t present = 0;
  std::uint64_t missing = 0;
  std::uint64_t torn = 0;
  // Acknowledged records whose slot holds the writer's next record there, never acknowledged,
  // whole or part written (the write under way at the cut): rightly replaced, not lost.
  std::uint64_t in_flight = 0;
  std::vector<std::uint64_t> lost;  // the first lost sequences
  // The file the records were in (`records`, or the SQLite database) was not on the disk after
  // the cut, though the run's directory was: every acknowledged record counts missing.
  bool file_missing = false;
  PowercutVerdict verdict = PowercutVerdict::kFailed;  // analysis/powercut_verdict.h
  // The machine's boot id when the records were written (kept beside them) and when they were
  // verified: a power cut of this machine is a reboot in between. Empty when not known.
  std::string writer_boot_id, verify_boot_id;
  // Whether the machine booted again between the write and the verify; unset when a boot id is
  // missing (an evidence file from before they were kept, or an OS without one).
  std::optional<bool> Rebooted() const {
    if (writer_boot_id.empty() || verify_boot_id.empty()) return std::nullopt;
    return writer_boot_id != verify_boot_id;
  }
  std::uint64_t Lost() const { return missing + torn; }
  std::uint64_t Checked() const { return present + missing + torn; }  // read back
};

}  // namespace durprobe::model
