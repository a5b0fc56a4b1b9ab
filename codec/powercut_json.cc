#include "codec/powercut_json.h"

#include <fmt/format.h>

namespace durprobe::report {

using nlohmann::json;

json ToJson(const PowercutEvidence& e) {
  return json{{"run_id", e.run_id},
              {"host", e.host},
              {"witness", e.witness},
              {"date", e.date},
              {"path", e.path},
              {"mode", e.mode},
              {"primitive", e.primitive},
              {"journal_mode", e.journal_mode},
              {"synchronous", e.synchronous},
              {"integrity_check", e.integrity_check},
              {"record_size", e.record_size},
              {"device",
               {{"name", e.device},
                {"disk", e.disk},
                {"model", e.device_model},
                {"serial", e.device_serial}}},
              {"filesystem", {{"type", e.fstype}, {"options", e.mount_options}}},
              {"records",
               {{"acknowledged", e.acknowledged},
                {"overwritten", e.overwritten},
                {"present", e.present},
                {"missing", e.missing},
                {"torn", e.torn},
                {"in_flight", e.in_flight},
                {"lost", e.Lost()},
                {"lost_sequences", e.lost},
                {"file_missing", e.file_missing}}},
              {"boot",
               {{"writer", e.writer_boot_id},
                {"verify", e.verify_boot_id},
                {"rebooted", e.Rebooted() ? json(*e.Rebooted()) : json(nullptr)}}},
              {"verdict", e.verdict}};
}

PowercutEvidence ReadPowercut(const JsonFields& f) {
  PowercutEvidence e;
  e.run_id = f.String("run_id", Need::kRequired);
  e.host = f.String("host");
  e.witness = f.String("witness");
  e.date = f.String("date");
  e.path = f.String("path");
  e.mode = f.String("mode");
  e.primitive = f.String("primitive");
  e.journal_mode = f.String("journal_mode");
  e.synchronous = f.String("synchronous");
  e.integrity_check = f.String("integrity_check");
  e.record_size = f.Uint("record_size");
  const JsonFields d = f.Object("device");
  e.device = d.String("name");
  e.disk = d.String("disk");
  e.device_model = d.String("model");
  e.device_serial = d.String("serial");
  const JsonFields fs = f.Object("filesystem");
  e.fstype = fs.String("type");
  e.mount_options = fs.Strings("options");
  const JsonFields r = f.Object("records", Need::kRequired);
  e.acknowledged = r.Uint("acknowledged", Need::kRequired);
  e.overwritten = r.Uint("overwritten");
  e.present = r.Uint("present");
  e.missing = r.Uint("missing", Need::kRequired);
  e.torn = r.Uint("torn", Need::kRequired);
  e.in_flight = r.Uint("in_flight");
  for (double v : r.Doubles("lost_sequences")) e.lost.push_back(static_cast<std::uint64_t>(v));
  e.file_missing = r.Bool("file_missing");
  const JsonFields boot = f.Object("boot");
  e.writer_boot_id = boot.String("writer");
  e.verify_boot_id = boot.String("verify");
  e.verdict = f.String("verdict", Need::kRequired);
  return e;
}

std::string PowercutEvidenceDocument(const PowercutEvidence& e) {
  json doc = json::object();
  doc["schema"] = kPowercutSchema;
  doc.update(ToJson(e));
  return doc.dump(2) + "\n";
}

Result<PowercutEvidence> ParsePowercutEvidence(std::string_view text) {
  json doc = json::parse(text, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    return Status::InvalidArgument("not a JSON object");
  }
  const auto schema = doc.find("schema");
  if (schema == doc.end() || !schema->is_string() || *schema != kPowercutSchema) {
    return Status::InvalidArgument(
        fmt::format("not a power-cut evidence file (schema {} expected)", kPowercutSchema));
  }
  std::string error;
  JsonFields f(&doc, "", &error);
  PowercutEvidence e = ReadPowercut(f);
  if (!error.empty()) return Status::InvalidArgument(error);
  if (e.verdict != "passed" && e.verdict != "failed") {
    return Status::InvalidArgument(
        fmt::format("verdict '{}': an evidence file says passed or failed", e.verdict));
  }
  return e;
}

}  // namespace durprobe::report
