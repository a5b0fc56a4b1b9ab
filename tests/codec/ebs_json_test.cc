// targets[].ebs and mount.device.queue_depth, written and read back byte for byte.
#include "codec/ebs_json.h"

#include <gtest/gtest.h>

#include <sstream>

#include "analysis/durability_model.h"
#include "codec/json_reader.h"
#include "codec/report_json.h"

namespace durprobe::codec {
namespace {

std::string WriteReport(const model::Report& r) {
  std::ostringstream out;
  WriteJson(r, out);
  return out.str();
}

TEST(EbsJsonTest, DeltasAndQueueDepthRoundTrip) {
  model::Report report;
  model::Target t;
  t.path = "/data";
  platform::MountInfo m;
  m.fstype = "xfs";
  platform::DeviceInfo d;
  d.name = "nvme1n1";
  d.queue_depth = 1023;
  m.device = d;
  t.mount = m;
  platform::EbsStats e;
  e.device = "nvme1n1";
  e.write_ops = 4000;
  e.write_bytes = 16'384'000;
  e.volume_exceeded_iops_us = 1'200'000;
  e.instance_exceeded_tp_us = 3;
  e.queue_length = 2;
  e.write_latency = {{0, 128, 0}, {128, 256, 3900}, {256, 512, 100}};
  t.ebs = e;
  t.durability = analysis::DurabilityOf(t, report.context);  // as the run decides it before writing
  report.targets = {t};
  std::string written = WriteReport(report);
  nlohmann::json j = nlohmann::json::parse(written);
  const nlohmann::json& ebs = j["targets"][0]["ebs"];
  EXPECT_EQ(ebs["volume_exceeded_iops_us"], 1'200'000);
  EXPECT_EQ(ebs["instance_exceeded_throughput_us"], 3);
  EXPECT_EQ(ebs["write_latency_us"].size(), 2u);  // the empty bin is left out
  EXPECT_EQ(j["targets"][0]["mount"]["device"]["queue_depth"], 1023);
  Result<model::Report> read = FromJson(written);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(WriteReport(*read), written);
  ASSERT_TRUE(read->targets[0].ebs.has_value());
  EXPECT_EQ(read->targets[0].ebs->write_latency.at(0).count, 3900u);
  EXPECT_EQ(read->targets[0].mount->device->queue_depth, 1023u);
}

}  // namespace
}  // namespace durprobe::codec
