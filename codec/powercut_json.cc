#include "codec/powercut_json.h"

#include <fmt/format.h>

#include "analysis/powercut_verdict.h"
#include "codec/json_reader.h"
#include "model/names.h"

namespace durprobe::codec {

using nlohmann::json;

namespace {

// The largest count an evidence file may state: every integer up to 2^53 is exact as a double
// (what other JSON readers make of it), and a sum of a few such counts cannot wrap.
constexpr std::uint64_t kMaxCount = std::uint64_t{1} << 53;

// Why v (at where) is no count: "" for a whole number from 0 to 2^53, or null (a default).
std::string NotACount(const json& v, const std::string& where) {
  if (v.is_null()) return "";
  const bool whole =
      v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0);
  if (whole && v.get<std::uint64_t>() <= kMaxCount) return "";
  return fmt::format("{}: {} is not a count (a whole number from 0 to 2^53)", where, v.dump());
}

// The counts of an evidence file, each a whole number that cannot overflow (issue: 2^64-1 + 1
// read as 0 lost, and 1e30 + 1e30 as nothing).
std::string CountsProblem(const json& doc) {
  if (auto size = doc.find("record_size"); size != doc.end()) {
    if (std::string why = NotACount(*size, "record_size"); !why.empty()) return why;
  }
  const auto records = doc.find("records");
  if (records == doc.end() || !records->is_object()) return "";  // ReadPowercut says so
  for (const auto& [key, value] : records->items()) {
    if (key == "file_missing") continue;
    if (key == "lost_sequences") {
      if (!value.is_array()) continue;  // ReadPowercut says so
      for (std::size_t i = 0; i < value.size(); ++i) {
        std::string why = NotACount(value[i], fmt::format("records.lost_sequences[{}]", i));
        if (!why.empty()) return why;
      }
      continue;
    }
    if (std::string why = NotACount(value, "records." + key); !why.empty()) return why;
  }
  return "";
}

}  // namespace

json ToJson(const model::PowercutEvidence& e) {
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
              {"verdict", model::NameOf(e.verdict)}};
}

namespace {

// verdict_text: the verdict as the file spells it, which the caller checks against the set.
model::PowercutEvidence ReadSpelt(const JsonFields& f, std::string& verdict_text) {
  model::PowercutEvidence e;
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
  verdict_text = f.String("verdict", Need::kRequired);
  e.verdict = model::ParseName<model::PowercutVerdict>(verdict_text)
                  .value_or(model::PowercutVerdict::kFailed);
  return e;
}

}  // namespace

model::PowercutEvidence ReadPowercut(const JsonFields& f) {
  std::string verdict;
  return ReadSpelt(f, verdict);
}

std::string PowercutEvidenceDocument(const model::PowercutEvidence& e) {
  json doc = json::object();
  doc["schema"] = model::kPowercutSchema;
  doc.update(ToJson(e));
  return doc.dump(2) + "\n";
}

Result<model::PowercutEvidence> ParsePowercutEvidence(std::string_view text) {
  // The report reader's parser: a key given twice is refused, as is JSON nested too deep.
  Result<json> parsed = ParseJsonText(std::string(text));
  if (!parsed.ok()) return parsed.status();
  const json& doc = *parsed;
  if (!doc.is_object()) return Status::InvalidArgument("not a JSON object");
  const auto schema = doc.find("schema");
  if (schema == doc.end() || !schema->is_string() || *schema != model::kPowercutSchema) {
    return Status::InvalidArgument(
        fmt::format("not a power-cut evidence file (schema {} expected)", model::kPowercutSchema));
  }
  if (std::string why = CountsProblem(doc); !why.empty()) return Status::InvalidArgument(why);
  std::string error;
  JsonFields f(&doc, "", &error);
  std::string verdict;
  model::PowercutEvidence e = ReadSpelt(f, verdict);
  if (!error.empty()) return Status::InvalidArgument(error);
  if (!model::ParseName<model::PowercutVerdict>(verdict)) {
    return Status::InvalidArgument(
        fmt::format("verdict '{}': an evidence file says passed or failed", verdict));
  }
  const json& records = doc.at("records");  // required: ReadPowercut said so if absent
  if (auto lost = records.find("lost");
      lost != records.end() && lost->is_number() && lost->get<std::uint64_t>() != e.Lost()) {
    return Status::InvalidArgument(fmt::format("records.lost is {}, but missing {} + torn {} is {}",
                                               lost->get<std::uint64_t>(), e.missing, e.torn,
                                               e.Lost()));
  }
  if (std::string why = analysis::PowercutContradiction(e); !why.empty()) {
    return Status::InvalidArgument(why);
  }
  return e;
}

}  // namespace durprobe::codec
