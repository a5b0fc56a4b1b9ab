#include "explain/cause_conditions.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "platform/cgroup_io.h"
#include "text/units.h"

namespace durprobe::explain::matchers {
namespace {

bool SetSide(const CausePair& p, CauseMatch& m, int side, const std::string& what) {
  m.side = side;
  m.what = fmt::format("{} {}", p.Name(side), what);
  return true;
}

const model::Context* ContextOf(const CausePair& p, int side) {
  return side == 0 ? p.in->context_a : p.in->context_b;
}

std::string Cpus(double cpus) {
  return cpus > 0 ? fmt::format("{:.2f} CPUs", cpus) : std::string("none");
}

// The limit on side's device, or nullptr (none recorded, or no device under the path).
const platform::IoLimit* LimitOf(const CausePair& p, int side) {
  const model::Context* c = ContextOf(p, side);
  const platform::MountInfo* mount = p.mount[side];
  if (c == nullptr || mount == nullptr || !mount->device) return nullptr;
  return platform::LimitFor(c->io_limits, *mount->device);
}

// The limits that cap a rate (the latency target and weight only share the device).
bool SameCaps(const platform::IoLimit* a, const platform::IoLimit* b) {
  auto caps = [](const platform::IoLimit* l) {
    return l == nullptr ? std::array<std::uint64_t, 4>{}
                        : std::array<std::uint64_t, 4>{l->read_bps, l->write_bps, l->read_iops,
                                                       l->write_iops};
  };
  return caps(a) == caps(b);
}

// How tight a limit is for syncs: its write IOPS, else its write bandwidth in 4 KiB writes.
double WriteCap(const platform::IoLimit* l) {
  if (l == nullptr) return 0;
  if (l->write_iops > 0) return static_cast<double>(l->write_iops);
  if (l->write_bps > 0) return static_cast<double>(l->write_bps) / 4096.0;
  return 0;
}

bool BySide(const CausePair& p, CauseMatch& m, const std::optional<double> SideState::*field,
            const char* what) {
  double a = (p.sig->side[0].*field).value_or(0), b = (p.sig->side[1].*field).value_or(0);
  if (a <= 0 && b <= 0) return false;
  m.side = b > a ? 1 : 0;
  m.what = p.Name(m.side) + fmt::format(fmt::runtime(what), std::max(a, b));
  return true;
}

}  // namespace

bool CpuQuotaOn(const CausePair& p, CauseMatch& m) {
  if (ContextOf(p, 0) == nullptr || ContextOf(p, 1) == nullptr) return false;
  const double cpus[2] = {ContextOf(p, 0)->cpu_quota.cpus(), ContextOf(p, 1)->cpu_quota.cpus()};
  if (std::fabs(cpus[0] - cpus[1]) < 1e-9) return false;  // the same quota, or none on both
  // The tighter side: the only one limited, or the smaller quota.
  const int side = cpus[0] > 0 && (cpus[1] == 0 || cpus[0] < cpus[1]) ? 0 : 1;
  const std::size_t throttled = p.sig->side[side].cpu_throttled;
  if (throttled > 0) {
    m.decided_by = fmt::format("{} of {}'s measurements ran out of the quota (cpu_throttled)",
                               throttled, p.Name(side));
  } else if (cpus[side] >= 1.0) {
    m.against = fmt::format(
        "a quota of {} leaves a single writer a whole CPU, and none of {}'s "
        "measurements was throttled",
        Cpus(cpus[side]), p.Name(side));
  }
  return SetSide(p, m, side,
                 fmt::format("ran under a CPU quota of {} ({}: {})", Cpus(cpus[side]),
                             p.Name(1 - side), Cpus(cpus[1 - side])));
}

bool IoLimitOn(const CausePair& p, CauseMatch& m) {
  const platform::IoLimit* limit[2] = {LimitOf(p, 0), LimitOf(p, 1)};
  if (SameCaps(limit[0], limit[1])) return false;
  const double cap[2] = {WriteCap(limit[0]), WriteCap(limit[1])};
  int side = -1;
  if (limit[0] == nullptr || !limit[0]->limits()) side = 1;
  if (limit[1] == nullptr || !limit[1]->limits()) side = side == 1 ? -1 : 0;
  if (side < 0) side = cap[0] > 0 && (cap[1] == 0 || cap[0] < cap[1]) ? 0 : 1;
  if (limit[side] == nullptr) return false;
  const platform::IoLimit& l = *limit[side];
  // A sync waits for a write and a flush: under a write cap its rate cannot pass the cap.
  const std::size_t overwrite = static_cast<std::size_t>(Signal::kOverwrite);
  const double sync_ns = p.sig->ratio[overwrite] ? p.sig->value[overwrite][side] : 0;
  if (sync_ns > 0 && cap[side] > 0 && 1e9 / sync_ns <= cap[side] * 1.5) {
    m.decided_by = fmt::format("its fdatasync overwrite ran {} syncs a second, at the cap",
                               text::FormatRate(1e9 / sync_ns));
  }
  const std::string other = limit[1 - side] == nullptr || !limit[1 - side]->limits()
                                ? std::string("none")
                                : platform::DescribeLimit(*limit[1 - side]);
  return SetSide(p, m, side,
                 fmt::format("ran under a cgroup I/O limit on {} ({}, set in {}; {}: {})",
                             l.name.empty() ? l.device : l.name, platform::DescribeLimit(l),
                             l.cgroup, p.Name(1 - side), other));
}

bool Neighbour(const CausePair& p, CauseMatch& m) {
  const std::optional<analysis::DeviceBackground>* bg[2] = {&p.sig->side[0].background,
                                                            &p.sig->side[1].background};
  const bool busy[2] = {*bg[0] && (*bg[0])->busy(), *bg[1] && (*bg[1])->busy()};
  if (!busy[0] && !busy[1]) return false;
  int side = busy[0] ? 0 : 1;
  if (busy[0] && busy[1]) {
    // A neighbour on each (a shared host's disk): the busier side's is a cause only where its
    // rate is above the other's beyond both counts' noise.
    side = (*bg[0])->per_sec > (*bg[1])->per_sec ? 0 : 1;
    if (!analysis::BusierBeyondNoise(**bg[side], **bg[1 - side])) return false;
  }
  const analysis::DeviceBackground& n = **bg[side];
  const std::optional<analysis::DeviceBackground>& o = *bg[1 - side];
  const std::string other =
      o ? fmt::format("{} a second on {}", text::FormatRate(o->per_sec), o->device)
        : std::string("not counted");
  m.decided_by =
      fmt::format("{} flushes in {} of idle slices, with nothing of durprobe's running ({}: {})",
                  text::CountText(n.flushes), text::FormatNanos(static_cast<double>(n.idle_ns)),
                  p.Name(1 - side), other);
  const model::Context* c = ContextOf(p, side);
  const std::string named = c == nullptr ? "" : analysis::WritersText(c->writers);
  return SetSide(p, m, side,
                 fmt::format("shared its device: another process flushed {} {} times a second "
                             "during the run{}",
                             n.device, text::FormatRate(n.per_sec),
                             named.empty() ? "" : " (the most writing meanwhile: " + named + ")"));
}

bool EbsVolume(const CausePair& p, CauseMatch& m) {
  return BySide(p, m, &SideState::ebs_volume_exceeded_ms,
                "'s EBS volume exceeded its provisioned IOPS or throughput for {:.0f} ms of "
                "the run");
}

bool EbsInstance(const CausePair& p, CauseMatch& m) {
  return BySide(p, m, &SideState::ebs_instance_exceeded_ms,
                "'s instance exceeded its EBS IOPS or throughput limit for {:.0f} ms of the run");
}

}  // namespace durprobe::explain::matchers
