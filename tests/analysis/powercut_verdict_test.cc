// What a power-cut test's evidence does to a path: its verdict from the counts, whether it
// speaks for the path (the same disk and filesystem), and the device layer it decides; and the
// evidence file both ways.
#include "analysis/powercut_verdict.h"

#include <gtest/gtest.h>

#include "analysis/durability_model.h"
#include "codec/powercut_json.h"
#include "model/finding_codes.h"

namespace durprobe::analysis::powercut_verdict_test {

platform::MountInfo VdaExt4() {
  platform::MountInfo m;
  m.path = "/data/x";
  m.mount_point = "/data";
  m.fstype = "ext4";
  platform::DeviceInfo d;
  d.name = d.disk = "vda";
  d.kind = "disk";
  d.write_cache = "write back";
  d.fua = false;
  d.serial = "SN-1";
  m.device = d;
  return m;
}

model::PowercutEvidence Passed() {
  model::PowercutEvidence e;
  e.run_id = "0123456789abcdef";
  e.date = "2026-12-06T04:00:00Z";
  e.mode = "file";
  e.primitive = "fdatasync";
  e.device = e.disk = "vda";
  e.device_serial = "SN-1";
  e.fstype = "ext4";
  e.acknowledged = e.present = 5000;
  e.writer_boot_id = "boot-before-the-cut";
  e.verify_boot_id = "boot-after-the-cut";
  e.verdict = PowercutVerdictOf(e);
  return e;
}

model::PowercutEvidence Failed() {
  model::PowercutEvidence e = Passed();
  e.present = 4990;
  e.missing = 8;
  e.torn = 2;
  e.verdict = PowercutVerdictOf(e);
  return e;
}

Target WithEvidence(const model::PowercutEvidence& e) {
  Target t;
  t.path = "/data/x";
  t.mount = VdaExt4();
  ApplyPowercutEvidence(t, e);
  return t;
}

// A pass counts only through a reboot: the same boot id at the write and the verify (a killed
// process, a crash device's cut) or none kept is no power cut of this machine. A failure counts
// without one: what was acknowledged and is missing is lost either way.
TEST(PowercutVerdictTest, APassWithoutARebootIsIgnoredAndAFailureCountsAnyway) {
  model::PowercutEvidence same = Passed();
  same.verify_boot_id = same.writer_boot_id;
  model::PowercutEvidence unknown = Passed();
  unknown.writer_boot_id.clear();
  for (const model::PowercutEvidence& e : {same, unknown}) {
    Target t = WithEvidence(e);
    EXPECT_FALSE(t.powercut.has_value());
    ASSERT_EQ(t.findings.size(), 1u);
    EXPECT_EQ(t.findings[0].code, model::codes::kPowercutEvidenceIgnored);
    EXPECT_NE(t.findings[0].message.find("no power cut"), std::string::npos)
        << t.findings[0].message;
  }
  EXPECT_EQ(same.Rebooted(), false);
  EXPECT_EQ(unknown.Rebooted(), std::nullopt);
  model::PowercutEvidence failed_same = Failed();
  failed_same.verify_boot_id = failed_same.writer_boot_id;
  EXPECT_TRUE(WithEvidence(failed_same).powercut.has_value());
}

TEST(PowercutVerdictTest, PassedOnlyWhenEveryAcknowledgedRecordCameBack) {
  EXPECT_EQ(Passed().verdict, model::PowercutVerdict::kPassed);
  EXPECT_EQ(Failed().verdict, model::PowercutVerdict::kFailed);
  model::PowercutEvidence none = Passed();
  none.acknowledged = none.present = 0;
  EXPECT_EQ(PowercutVerdictOf(none), model::PowercutVerdict::kFailed)
      << "nothing acknowledged proves nothing";
}

TEST(PowercutVerdictTest, APassedTestTurnsTheUnknownDeviceLayerIntoPasses) {
  Target plain;
  plain.path = "/data/x";
  plain.mount = VdaExt4();
  ASSERT_EQ(DurabilityOf(plain, {}).verdict, model::DurabilityVerdict::kUnproven);
  const model::Durability d = DurabilityOf(WithEvidence(Passed()), {});
  EXPECT_EQ(d.verdict, model::DurabilityVerdict::kDurable) << d.reason;
  const model::DurabilityLayer& device = d.layers.back();
  EXPECT_EQ(device.kind, model::LayerKind::kDevice);
  EXPECT_EQ(device.effect, model::LayerEffect::kPasses);
  EXPECT_NE(device.reason.find("power-cut verified: 5000 records, 2026-12-06T04:00:00Z"),
            std::string::npos)
      << device.reason;
}

TEST(PowercutVerdictTest, AFailedTestMakesThePathNotDurableWhateverTheDeviceSays) {
  platform::MountInfo m = VdaExt4();
  m.device->write_cache = "write through";  // a device that would pass on its own
  Target t;
  t.path = "/data/x";
  t.mount = m;
  ApplyPowercutEvidence(t, Failed());
  const model::Durability d = DurabilityOf(t, {});
  EXPECT_EQ(d.verdict, model::DurabilityVerdict::kNotDurable);
  ASSERT_TRUE(d.deciding_layer.has_value());
  EXPECT_EQ(*d.deciding_layer, model::LayerKind::kDevice);
  EXPECT_NE(d.reason.find("10 of 5000 acknowledged records lost"), std::string::npos) << d.reason;
}

TEST(PowercutVerdictTest, AnotherDisksOrFilesystemsEvidenceIsIgnoredWithAFinding) {
  model::PowercutEvidence other_disk = Passed();
  other_disk.device_serial = "SN-2";
  Target t = WithEvidence(other_disk);
  EXPECT_FALSE(t.powercut.has_value());
  ASSERT_EQ(t.findings.size(), 1u);
  EXPECT_EQ(t.findings[0].code, model::codes::kPowercutEvidenceIgnored);
  EXPECT_NE(t.findings[0].message.find("serial SN-2"), std::string::npos);
  EXPECT_EQ(DurabilityOf(t, {}).verdict, model::DurabilityVerdict::kUnproven);

  model::PowercutEvidence other_fs = Passed();
  other_fs.fstype = "xfs";
  EXPECT_NE(PowercutMismatch(other_fs, VdaExt4()).find("xfs"), std::string::npos);
  // Without serials on either side, the disk's name and model must agree.
  model::PowercutEvidence no_serial = Passed();
  no_serial.device_serial.clear();
  EXPECT_EQ(PowercutMismatch(no_serial, VdaExt4()), "");
  no_serial.disk = "vdb";
  EXPECT_NE(PowercutMismatch(no_serial, VdaExt4()), "");
}

TEST(PowercutEvidenceJsonTest, TheEvidenceFileRoundTripsAndRefusesOtherDocuments) {
  model::PowercutEvidence e = Failed();
  e.mount_options = {"rw", "relatime"};
  e.lost = {4990, 4991};
  Result<model::PowercutEvidence> back =
      codec::ParsePowercutEvidence(codec::PowercutEvidenceDocument(e));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->run_id, e.run_id);
  EXPECT_EQ(back->device_serial, "SN-1");
  EXPECT_EQ(back->mount_options, e.mount_options);
  EXPECT_EQ(back->missing, 8u);
  EXPECT_EQ(back->torn, 2u);
  EXPECT_EQ(back->lost, e.lost);
  EXPECT_EQ(back->verdict, model::PowercutVerdict::kFailed);
  EXPECT_FALSE(codec::ParsePowercutEvidence("{\"schema\": \"durprobe.report/1\"}").ok());
  EXPECT_FALSE(codec::ParsePowercutEvidence("not json").ok());
  Result<model::PowercutEvidence> no_records =
      codec::ParsePowercutEvidence("{\"schema\": \"durprobe.powercut/1\", \"run_id\": \"x\"}");
  ASSERT_FALSE(no_records.ok());
  EXPECT_NE(no_records.status().message().find("records"), std::string::npos)
      << no_records.status().message();
}

}  // namespace durprobe::analysis::powercut_verdict_test
