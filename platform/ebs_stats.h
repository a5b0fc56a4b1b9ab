// Amazon EBS volume statistics, as an EBS NVMe device exposes them in-guest: the vendor log page
// 0xD0 (read with Platform::ReadNvmeLogPage), laid out as nvme-cli's `nvme amzn stats` and
// FreeBSD's ebsnvme read it. Parsing is pure; docs/diagnose.md says what the counters mean.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace durprobe::platform {

inline constexpr std::uint8_t kEbsStatsLogId = 0xD0;
inline constexpr std::uint32_t kEbsStatsMagic = 0x3C23B510;
inline constexpr std::size_t kEbsStatsPageBytes = 4096;

// One bin of a latency histogram: the I/Os that took lower to upper microseconds.
struct EbsHistogramBin {
  std::uint64_t lower_us = 0, upper_us = 0;
  std::uint64_t count = 0;
};

// The page's counters (cumulative since the volume was attached), or the change of each over a
// run (EbsDelta). Times in microseconds.
struct EbsStats {
  std::string device;  // the NVMe namespace read: "nvme1n1"
  std::uint64_t read_ops = 0, write_ops = 0, read_bytes = 0, write_bytes = 0;
  std::uint64_t read_time_us = 0, write_time_us = 0;
  // Time the demand was over the volume's provisioned IOPS / throughput, and over the instance's
  // EBS IOPS / throughput limits: I/O was throttled for that long.
  std::uint64_t volume_exceeded_iops_us = 0, volume_exceeded_tp_us = 0;
  std::uint64_t instance_exceeded_iops_us = 0, instance_exceeded_tp_us = 0;
  std::uint64_t queue_length = 0;  // at the moment of reading, not cumulative
  std::vector<EbsHistogramBin> read_latency, write_latency;
};

// The statistics in a log page, or nullopt when it is not one (short, or another magic: a device
// that is not an EBS volume answers log 0xD0 with something else or not at all).
std::optional<EbsStats> ParseEbsStatsPage(const std::vector<std::uint8_t>& page);

// after - before for every counter and histogram bin (bins matched by position; a counter that
// went backwards, a volume re-attached, counts 0); the queue length is after's.
EbsStats EbsDelta(const EbsStats& before, const EbsStats& after);

// A page in the documented layout holding stats, for tests and fixtures (the inverse of Parse).
std::vector<std::uint8_t> BuildEbsStatsPage(const EbsStats& stats);

}  // namespace durprobe::platform
