// targets[].concurrency[] and targets[].serial_vs_concurrent in the JSON report: the contract
// keys, and a report holding them read back and written again byte for byte.
#include "codec/concurrency_json.h"

#include <gtest/gtest.h>

#include "codec/json_reader.h"
#include "codec/report_json.h"

namespace durprobe::codec {
namespace {

probes::ConcurrencyResult Row() {
  probes::ConcurrencyResult r;
  r.spec = {8, probes::WriterMode::kSharedFile, probes::Primitive::kIoUringFdatasync, 4096};
  r.ops = 12000;
  r.seconds = 1.25;
  r.latency.count = 12000;
  r.latency.p50 = 800'000;
  r.latency.p99 = 2'000'000;
  r.latency.p95 = 1'500'000;
  r.latency.max = 3'000'000;
  r.aggregate_ops_per_sec = 9600.5;
  r.scaling = 3.25;
  return r;
}

TEST(ConcurrencyJsonTest, RowCarriesTheContractKeys) {
  nlohmann::json j = ToJson(Row());
  EXPECT_EQ(j["writers"], 8);
  EXPECT_EQ(j["mode"], "shared_file");
  EXPECT_EQ(j["primitive"], "io_uring_fdatasync");
  EXPECT_EQ(j["write_size"], 4096);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["latency_ns"]["p50"], 800'000);
  EXPECT_TRUE(j["latency_ns"].contains("p99"));
  EXPECT_DOUBLE_EQ(j["aggregate_ops_per_sec"].get<double>(), 9600.5);
  EXPECT_DOUBLE_EQ(j["scaling"].get<double>(), 3.25);
  probes::ConcurrencyResult refused = Row();
  refused.outcome = probes::Outcome::kUnsupported;
  refused.reason = "io_uring is refused here";
  nlohmann::json u = ToJson(refused);
  EXPECT_EQ(u["status"], "unsupported");
  EXPECT_EQ(u["reason"], "io_uring is refused here");
  EXPECT_FALSE(u.contains("aggregate_ops_per_sec"));
}

TEST(ConcurrencyJsonTest, ATargetWithBothRoundTripsByteForByte) {
  model::Report report;
  report.targets.resize(2);
  report.targets[0].path = "/a";
  report.targets[1].path = "/b";
  model::Target& t = report.targets[1];
  t.concurrency = {Row(), Row()};
  t.concurrency[1].spec.writers = 1;
  t.concurrency[1].scaling = 0;  // written as null
  model::SerialVsConcurrent s;
  s.concurrent.engine = "io_uring";
  s.concurrent.ops = 50000;
  s.concurrent.seconds = 1.0;
  s.concurrent.ops_per_sec = 50000;
  s.concurrent.latency.p50 = 600'000;
  s.serial_label = "fdatasync overwrite 4 KiB";
  s.serial_ops_per_sec = 1250;
  s.ratio = 40;
  t.serial_vs_concurrent = s;
  nlohmann::json j = ToJson(report);
  EXPECT_FALSE(j["targets"][0].contains("concurrency"));
  EXPECT_FALSE(j["targets"][0].contains("serial_vs_concurrent"));
  EXPECT_TRUE(j["targets"][1]["concurrency"][1]["scaling"].is_null());
  const nlohmann::json& svc = j["targets"][1]["serial_vs_concurrent"];
  EXPECT_EQ(svc["concurrent"]["queue_depth"], 32);
  EXPECT_EQ(svc["concurrent"]["engine"], "io_uring");
  EXPECT_EQ(svc["serial"]["probe"], "fdatasync overwrite 4 KiB");
  EXPECT_DOUBLE_EQ(svc["ratio"].get<double>(), 40.0);

  // Read, written, read and written again: the two writes are the same bytes (the first read
  // may add what the reader derives, such as the durability verdict).
  Result<model::Report> read = FromJson(DumpJson(j));
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_EQ(read->targets[1].concurrency.size(), 2u);
  EXPECT_EQ(read->targets[1].concurrency[0].spec, Row().spec);
  EXPECT_EQ(ToJson(*read)["targets"][1]["concurrency"], j["targets"][1]["concurrency"]);
  EXPECT_EQ(ToJson(*read)["targets"][1]["serial_vs_concurrent"], svc);
  std::string written = DumpJson(ToJson(*read));
  Result<model::Report> again = FromJson(written);
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(DumpJson(ToJson(*again)), written);
}

}  // namespace
}  // namespace durprobe::codec
