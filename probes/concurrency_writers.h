// The writers of probes/concurrency.h: how each mode makes one writer's operation, and how one
// writer's timed loop ends up in the result. Internal to probes/concurrency*.cc.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "platform/platform.h"
#include "probes/concurrency.h"
#include "probes/probe_ops.h"
#include "probes/timed_loop.h"

namespace durprobe::probes {

// One shared file, preallocated and open with the primitive's flags, that several writers'
// operations write into (each its own region of region_size bytes).
class SharedFile {
 public:
  static Result<std::unique_ptr<SharedFile>> Create(platform::Platform& platform,
                                                    const std::string& dir, Primitive primitive,
                                                    std::uint64_t size);
  ~SharedFile();
  int fd() const { return fd_.get(); }

 private:
  SharedFile(platform::Platform& platform, std::string path) : p_(platform), path_(path) {}
  platform::Platform& p_;
  std::string path_;
  platform::FileHandle fd_;
};

// Writer `index`'s operation: in threads and processes modes the ordinary probe op on its own
// directory <dir>/w<index> (the same op the probe runs, so one writer is the ordinary probe);
// in shared-file mode an op writing region `index` of shared.
Result<std::unique_ptr<ProbeOp>> MakeWriterOp(platform::Platform& platform, const std::string& dir,
                                              const ConcurrencySpec& spec, std::uint32_t index,
                                              std::uint64_t file_size, SharedFile* shared);

// Removes <dir>/w<index> for every writer (a directory already gone is fine).
void RemoveWriterDirs(platform::Platform& platform, const std::string& dir, std::uint32_t writers);

// Runs the writers as processes, each with its own file; one loop outcome per writer.
std::vector<LoopOutcome> RunWriterProcesses(platform::Platform& platform, const std::string& dir,
                                            const ConcurrencySpec& spec, const StopRule& rule,
                                            std::uint64_t file_size, std::uint32_t* reported);

}  // namespace durprobe::probes
