// Fixture pairs for cause ranking: a path on ext4 on a disk whose measured signature (sync
// latencies, per-operation and metadata costs) is scaled per signal, and its configuration
// changed the way each knowledge entry describes.
#pragma once

#include <string>

#include "model/report.h"
#include "tests/compare_samples.h"

namespace durprobe::testing_support {

// How side b's measurements relate to a's: each signal's factor.
struct Scale {
  double overwrite = 1, append = 1, dir = 1, op = 1, meta = 1;
};

inline model::Target CausePath(const std::string& path, const Scale& s = {}) {
  auto u = [](double v) { return static_cast<std::uint64_t>(v); };
  model::Target t;
  t.path = path;
  t.probes = {CompareProbe(Primitive::kFdatasync, Pattern::kOverwrite,
                           u(1000 * s.op + 200000 * s.overwrite), u(200000 * s.overwrite)),
              CompareProbe(Primitive::kFdatasync, Pattern::kAppend,
                           u(1000 * s.op + 300000 * s.append), u(300000 * s.append)),
              CompareProbe(Primitive::kDirFsync, Pattern::kCreate,
                           u(8000 * s.meta + 150000 * s.dir), u(150000 * s.dir))};
  t.op_costs = {Op(FileOp::kWrite, u(1000 * s.op)),     Op(FileOp::kRead, u(500 * s.op)),
                Op(FileOp::kOpenClose, u(1500 * s.op)), Op(FileOp::kStat, u(800 * s.op)),
                Op(FileOp::kCreate, u(5000 * s.meta)),  Op(FileOp::kRename, u(4000 * s.meta))};
  platform::MountInfo m;
  m.path = path;
  m.fstype = "ext4";
  m.source = "/dev/vda1";
  m.mount_point = "/";
  m.options = {"rw", "relatime"};
  m.container.path_role = platform::PathRole::kVolume;
  platform::DeviceInfo d;
  d.name = "vda1";
  d.disk = "vda";
  d.kind = "partition";
  d.rotational = false;
  d.write_cache = "write back";
  d.fua = false;
  d.scheduler = "mq-deadline";
  d.queue_depth = 256;
  m.device = d;
  t.mount = m;
  return t;
}

}  // namespace durprobe::testing_support
