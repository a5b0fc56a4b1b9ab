#include "platform/ebs_stats.h"

#include <algorithm>

namespace durprobe::platform {
namespace {

// The layout, little-endian: magic and version (u32 each), eleven u64 counters from offset 8,
// 416 reserved bytes, then the read and the write histogram at 512 and 2056, each a u64 bin
// count and 64 bins of {u64 lower, u64 upper, u32 count, u32 reserved}; 496 reserved to 4096.
constexpr std::size_t kCountersAt = 8;
constexpr std::size_t kReadHistogramAt = 512;
constexpr std::size_t kHistogramBins = 64;
constexpr std::size_t kBinBytes = 24;
constexpr std::size_t kWriteHistogramAt = kReadHistogramAt + 8 + kHistogramBins * kBinBytes;

std::uint64_t LoadLe(const std::vector<std::uint8_t>& p, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[at + static_cast<std::size_t>(i)];
  return v;
}

void StoreLe(std::vector<std::uint8_t>& p, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) p[at + static_cast<std::size_t>(i)] = (v >> (8 * i)) & 0xff;
}

// The counters in page order.
std::uint64_t* Counter(EbsStats& s, int i) {
  std::uint64_t* fields[] = {&s.read_ops,
                             &s.write_ops,
                             &s.read_bytes,
                             &s.write_bytes,
                             &s.read_time_us,
                             &s.write_time_us,
                             &s.volume_exceeded_iops_us,
                             &s.volume_exceeded_tp_us,
                             &s.instance_exceeded_iops_us,
                             &s.instance_exceeded_tp_us,
                             &s.queue_length};
  return fields[i];
}
constexpr int kCounters = 11;

std::vector<EbsHistogramBin> ParseHistogram(const std::vector<std::uint8_t>& p, std::size_t at) {
  std::size_t n = std::min<std::uint64_t>(LoadLe(p, at, 8), kHistogramBins);
  std::vector<EbsHistogramBin> bins;
  for (std::size_t b = 0; b < n; ++b) {
    std::size_t bin = at + 8 + b * kBinBytes;
    bins.push_back({LoadLe(p, bin, 8), LoadLe(p, bin + 8, 8), LoadLe(p, bin + 16, 4)});
  }
  return bins;
}

void StoreHistogram(std::vector<std::uint8_t>& p, std::size_t at,
                    const std::vector<EbsHistogramBin>& bins) {
  std::size_t n = std::min(bins.size(), kHistogramBins);
  StoreLe(p, at, n, 8);
  for (std::size_t b = 0; b < n; ++b) {
    std::size_t bin = at + 8 + b * kBinBytes;
    StoreLe(p, bin, bins[b].lower_us, 8);
    StoreLe(p, bin + 8, bins[b].upper_us, 8);
    StoreLe(p, bin + 16, bins[b].count, 4);
  }
}

std::uint64_t Minus(std::uint64_t after, std::uint64_t before) {
  return after >= before ? after - before : 0;
}

std::vector<EbsHistogramBin> HistogramDelta(const std::vector<EbsHistogramBin>& before,
                                            const std::vector<EbsHistogramBin>& after) {
  std::vector<EbsHistogramBin> out = after;
  for (std::size_t i = 0; i < out.size() && i < before.size(); ++i) {
    out[i].count = Minus(after[i].count, before[i].count);
  }
  return out;
}

}  // namespace

std::optional<EbsStats> ParseEbsStatsPage(const std::vector<std::uint8_t>& page) {
  if (page.size() < kEbsStatsPageBytes) return std::nullopt;
  if (LoadLe(page, 0, 4) != kEbsStatsMagic) return std::nullopt;
  EbsStats s;
  for (int i = 0; i < kCounters; ++i) {
    *Counter(s, i) = LoadLe(page, kCountersAt + 8 * static_cast<std::size_t>(i), 8);
  }
  s.read_latency = ParseHistogram(page, kReadHistogramAt);
  s.write_latency = ParseHistogram(page, kWriteHistogramAt);
  return s;
}

EbsStats EbsDelta(const EbsStats& before, const EbsStats& after) {
  EbsStats d = after;
  EbsStats b = before;
  for (int i = 0; i < kCounters - 1; ++i) *Counter(d, i) = Minus(*Counter(d, i), *Counter(b, i));
  d.read_latency = HistogramDelta(before.read_latency, after.read_latency);
  d.write_latency = HistogramDelta(before.write_latency, after.write_latency);
  return d;
}

std::vector<std::uint8_t> BuildEbsStatsPage(const EbsStats& stats) {
  std::vector<std::uint8_t> page(kEbsStatsPageBytes, 0);
  EbsStats s = stats;
  StoreLe(page, 0, kEbsStatsMagic, 4);
  for (int i = 0; i < kCounters; ++i) {
    StoreLe(page, kCountersAt + 8 * static_cast<std::size_t>(i), *Counter(s, i), 8);
  }
  StoreHistogram(page, kReadHistogramAt, stats.read_latency);
  StoreHistogram(page, kWriteHistogramAt, stats.write_latency);
  return page;
}

}  // namespace durprobe::platform
