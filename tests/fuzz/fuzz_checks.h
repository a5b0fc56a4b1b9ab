// What each fuzz target checks on one input, shared by the libFuzzer targets (*_fuzz.cc, which
// abort on a broken promise) and by fuzz_inputs_test.cc (which replays every kept input in the
// normal and sanitizer builds). Each returns "" when the input was handled as promised, or the
// promise it broke. A crash, an exception or a sanitizer report is a failure too.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "codec/json_reader.h"
#include "explain/diff_analysis.h"
#include "gate/policy.h"
#include "platform/mountinfo.h"
#include "probes/powercut_protocol.h"
#include "render/console/diff_console.h"
#include "render/json/diff_json.h"
#include "text/units.h"

namespace durprobe::fuzz {

// A libFuzzer target's body: runs check on the input and aborts (a crash to libFuzzer) with the
// promise it broke, named after the target.
template <typename Check>
int RunCheck(const char* target, Check check, const std::uint8_t* data, std::size_t size) {
  std::string broken = check(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!broken.empty()) {
    std::fprintf(stderr, "%s: %s\n", target, broken.c_str());
    std::abort();
  }
  return 0;
}

// The saved-report reader that diff, report and summarize run on files from other hosts: the
// typed reader, then what diff does next with a valid report (compare it with another, both
// ways, and write the result as `durprobe diff` does, console and JSON).
inline std::string CheckReportJson(std::string_view input) {
  Result<model::Report> read = codec::FromJson(std::string(input));
  if (!read.ok())
    return read.status().message().empty() ? "a rejected report without a message" : "";
  model::Report other;
  other.targets.push_back(model::Target{});
  other.targets.back().path = "/data";
  for (const Result<explain::Diff>& d : {explain::DiffReports(*read, other, "a", "b"),
                                         explain::DiffReports(other, *read, "a", "b")}) {
    if (!d.ok()) {
      if (d.status().message().empty()) return "a diff error without a message";
      continue;
    }
    std::ostringstream console;
    render::console::PrintDiff(*d, console);
    (void)render::json::ToJson(*d).dump(2);
  }
  return "";
}

// /proc/self/mountinfo and the lookups inspect runs on its table: the kernel writes the text,
// but anyone with a mount namespace chooses its mount points, sources and options.
inline std::string CheckMountInfo(std::string_view input) {
  (void)platform::UnescapeMountField(input);
  Result<std::vector<platform::MountEntry>> table = platform::ParseMountInfo(input);
  if (!table.ok()) return table.status().message().empty() ? "an error without a message" : "";
  for (const platform::MountEntry& e : *table) {
    for (const std::string& path : {e.mount_point, e.mount_point + "/x", std::string("/")}) {
      const platform::MountEntry* found = platform::FindMount(*table, path);
      if (found != nullptr) (void)platform::DescribeMount(*table, *found, path);
    }
    (void)platform::ParseOverlayOptions(e.super_options);
    (void)platform::MergeOptions(e.mount_options, e.super_options);
    (void)platform::HasOption(e.super_options, "barrier=");
    (void)platform::OptionValue(e.super_options, "subvol");
  }
  return "";
}

// --sizes, --file-size, --budget and friends: a size is a whole number of bytes from 1 to 1e15,
// a duration from 1 ns to 1e15 ns, and the formatters take any of them.
inline std::string CheckUnits(std::string_view input) {
  constexpr std::uint64_t kMax = 1'000'000'000'000'000ull;
  Result<std::uint64_t> bytes = text::ParseSize(input);
  if (bytes.ok()) {
    if (*bytes < 1 || *bytes > kMax) return "a size out of [1, 1e15]: " + std::to_string(*bytes);
    (void)text::FormatBytes(*bytes);
  } else if (bytes.status().message().empty()) {
    return "a size error without a message";
  }
  Result<std::uint64_t> ns = text::ParseDurationNanos(input);
  if (ns.ok()) {
    if (*ns < 1 || *ns > kMax) return "a duration out of [1, 1e15] ns: " + std::to_string(*ns);
    (void)text::FormatNanos(static_cast<double>(*ns));
    (void)text::FormatRate(1e9 / static_cast<double>(*ns));
  } else if (ns.status().message().empty()) {
    return "a duration error without a message";
  }
  return "";
}

// check's policy files (TOML or JSON), written by whoever runs the gate: a policy, or one line
// naming the file, never a crash. A policy that parsed lists what it measures and evaluates
// against a report that measured nothing (every rule then an error, never a pass).
inline std::string CheckPolicy(std::string_view input) {
  for (const char* format : {"toml", "json"}) {
    std::string file = std::string("policy.") + format;
    Result<gate::Policy> policy = gate::ParsePolicy(input, format, file);
    if (!policy.ok()) {
      std::string m = policy.status().message();
      if (m.rfind(file, 0) != 0) return "a policy error that does not name the file: " + m;
      if (m.find('\n') != std::string::npos) return "a policy error of several lines: " + m;
      continue;
    }
    (void)policy->ProbeSpecs();
    (void)policy->CommitConfigs();
    model::Report nothing;
    nothing.targets.push_back(model::Target{});
    nothing.targets.back().path = "/data";
    for (const model::CheckResult& c : gate::EvaluatePolicy(*policy, nothing)) {
      if (c.outcome == model::CheckOutcome::kPass && c.unit != model::CheckUnit::kFindings) {
        return "rule " + c.rule + " passed on a report that measured nothing";
      }
    }
  }
  return "";
}

// The power-cut witness's line protocol, from the network and from its log: the bytes are fed
// to a LineBuffer in pieces (every line it gives is whole, at most kMaxLineBytes), each line is
// parsed as the protocol and as the log, and what parses formats back to a line that parses to
// the same; the whole input is loaded as a log, and each run loaded answers GET the same in
// small chunks as at once, with its secret only.
inline std::string CheckWitnessProtocol(std::string_view input) {
  using namespace durprobe::probes;
  LineBuffer buffer;
  for (std::size_t at = 0; at < input.size(); at += 7) {
    buffer.Append(input.substr(at, 7));
    while (std::optional<std::string> line = buffer.Next()) {
      if (line->size() > kMaxLineBytes) return "LineBuffer gave a line over kMaxLineBytes";
      if (line->find('\n') != std::string::npos) return "LineBuffer gave a line with a newline";
      for (bool log : {false, true}) {
        Result<Message> m = ParseMessage(*line, log);
        if (!m.ok()) continue;
        const std::string formatted = FormatMessage(*m);
        Result<Message> again =
            ParseMessage(std::string_view(formatted).substr(0, formatted.size() - 1), log);
        if (!again.ok()) return "a parsed line formats to one that does not parse: " + formatted;
        if (FormatMessage(*again) != formatted) return "a line changes when formatted again";
      }
    }
    if (buffer.pending() > kMaxLineBytes + 7) return "LineBuffer holds more than a line";
  }
  WitnessStore store;
  if (!store.Load(input).ok()) return "";
  for (std::size_t at = 0; at < input.size();) {
    const std::size_t nl = input.find('\n', at);
    if (nl == std::string_view::npos) break;
    Result<Message> m = ParseMessage(input.substr(at, nl - at), true);
    at = nl + 1;
    if (!m.ok() || m->kind != MessageKind::kLogHello) continue;
    const WitnessRun* run = store.Find(m->run_id);
    if (run == nullptr) return "a loaded run is missing";
    const std::string whole = AnswerGet(store, run->run_id, run->secret);
    std::string chunked;
    GetAnswer answer(store, run->run_id, run->secret);
    while (answer.More(chunked, 3)) {
    }
    if (chunked != whole) return "a GET's answer differs made in chunks";
    const bool readable = IsSecret(run->secret);
    if (whole.starts_with("RUN ") != readable) return "a run answered without its secret";
    if (AnswerGet(store, run->run_id, "ffffffffffffffffffffffffffffffff") !=
            "UNKNOWN " + run->run_id + "\n" &&
        run->secret != "ffffffffffffffffffffffffffffffff") {
      return "a wrong secret got the run";
    }
  }
  return "";
}

}  // namespace durprobe::fuzz
