// `durprobe powercut`'s console text (docs/powercut.md): the witness's banner, what the writer
// says before it writes (how to cut the power, what to run after the reboot) and when it stops,
// and verify's counts and verdict. Formats only: the decisions are analysis/powercut_verdict.h's.
#pragma once

#include <cstdint>
#include <string>

#include "model/powercut.h"
#include "probes/powercut_writer.h"

namespace durprobe::render::console {

// The log's path with its control characters escaped (a name can hold ESC or BEL).
std::string PowercutWitnessBanner(const std::string& listening, const std::string& log,
                                  std::size_t runs, std::uint64_t acks, std::size_t clients);
std::string PowercutWitnessStopped(std::uint64_t acks_logged, std::uint64_t syncs,
                                   std::uint64_t connections);
// Said once the file is ready, before the first record.
std::string PowercutWriteBanner(const std::string& run_id, const std::string& host,
                                const std::string& path, const std::string& directory,
                                const std::string& witness, std::string_view primitive,
                                std::uint64_t record_size);
std::string PowercutWriteStopped(const probes::PowercutWriteResult& r, const std::string& run_id);
std::string PowercutVerifyText(const model::PowercutEvidence& e);

}  // namespace durprobe::render::console
