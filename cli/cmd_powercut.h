// `durprobe powercut witness|write|verify` (docs/powercut.md): a power-cut test across two
// hosts. The witness (second host) logs every acknowledgement durably; write (host under test)
// syncs records and acknowledges each to the witness only after its sync returned; after the
// power cut and reboot, verify reads every acknowledged record back and writes the evidence
// file that run, check and inspect take with --evidence (cli/evidence_option.h).
#pragma once

#include <cstdint>
#include <string>

#include "cli/subcommand.h"

namespace durprobe::cli {

struct PowercutCliOptions {
  std::string listen;
  std::string log;
  std::string path = ".";
  std::string witness;
  std::string primitive = "fdatasync";
  std::string mode = "file";
  std::string journal_mode = "wal";
  std::string synchronous = "full";
  std::string record_size = "4k";
  std::string file_size = "64MiB";
  std::uint64_t max_outstanding = 1024;
  std::string duration;              // --for
  std::string idle_timeout = "30s";  // witness --idle-timeout
  std::string run_id;
  std::string timeout = "5m";  // verify's overall deadline
  std::string save_evidence;
  std::string json;
  bool dry_run = false;
};

Subcommand SetupPowercut(CLI::App& app);
int RunPowercutWitness(const PowercutCliOptions& options);
int RunPowercutWrite(const PowercutCliOptions& options);
int RunPowercutVerify(const PowercutCliOptions& options);

}  // namespace durprobe::cli
