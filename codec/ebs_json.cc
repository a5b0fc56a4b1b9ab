#include "codec/ebs_json.h"

namespace durprobe::codec {
namespace {

using nlohmann::json;

// Bins with a count only: the delta of a short run leaves most of the 64 bins empty.
json Histogram(const std::vector<platform::EbsHistogramBin>& bins) {
  json out = json::array();
  for (const platform::EbsHistogramBin& b : bins) {
    if (b.count == 0) continue;
    out.push_back({{"lower_us", b.lower_us}, {"upper_us", b.upper_us}, {"count", b.count}});
  }
  return out;
}

std::vector<platform::EbsHistogramBin> ReadHistogram(const JsonFields& f, const char* key) {
  std::vector<platform::EbsHistogramBin> bins;
  f.Each(key, Need::kOptional, [&](const JsonFields& b) {
    bins.push_back({b.Uint("lower_us"), b.Uint("upper_us"), b.Uint("count")});
  });
  return bins;
}

}  // namespace

json ToJson(const platform::EbsStats& e) {
  return {{"device", e.device},
          {"read_ops", e.read_ops},
          {"write_ops", e.write_ops},
          {"read_bytes", e.read_bytes},
          {"write_bytes", e.write_bytes},
          {"read_time_us", e.read_time_us},
          {"write_time_us", e.write_time_us},
          {"volume_exceeded_iops_us", e.volume_exceeded_iops_us},
          {"volume_exceeded_throughput_us", e.volume_exceeded_tp_us},
          {"instance_exceeded_iops_us", e.instance_exceeded_iops_us},
          {"instance_exceeded_throughput_us", e.instance_exceeded_tp_us},
          {"queue_length", e.queue_length},
          {"read_latency_us", Histogram(e.read_latency)},
          {"write_latency_us", Histogram(e.write_latency)}};
}

platform::EbsStats ReadEbs(const JsonFields& f) {
  platform::EbsStats e;
  e.device = f.String("device");
  e.read_ops = f.Uint("read_ops");
  e.write_ops = f.Uint("write_ops");
  e.read_bytes = f.Uint("read_bytes");
  e.write_bytes = f.Uint("write_bytes");
  e.read_time_us = f.Uint("read_time_us");
  e.write_time_us = f.Uint("write_time_us");
  e.volume_exceeded_iops_us = f.Uint("volume_exceeded_iops_us");
  e.volume_exceeded_tp_us = f.Uint("volume_exceeded_throughput_us");
  e.instance_exceeded_iops_us = f.Uint("instance_exceeded_iops_us");
  e.instance_exceeded_tp_us = f.Uint("instance_exceeded_throughput_us");
  e.queue_length = f.Uint("queue_length");
  e.read_latency = ReadHistogram(f, "read_latency_us");
  e.write_latency = ReadHistogram(f, "write_latency_us");
  return e;
}

}  // namespace durprobe::codec
