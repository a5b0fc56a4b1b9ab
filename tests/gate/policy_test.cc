// The policy parser: flags, TOML and JSON documents, presets, and one-line errors that name the
// file, the line and the key.
#include "gate/policy.h"

#include <gtest/gtest.h>

#include "gate/presets.h"

namespace durprobe::gate {
namespace {

// One line, "FILE:LINE: key 'KEY': ..." (or "FILE:LINE: ..." for syntax errors).
void ExpectError(const Result<Policy>& p, const std::string& where, const std::string& needle) {
  ASSERT_FALSE(p.ok());
  std::string m = p.status().message();
  EXPECT_EQ(m.rfind(where, 0), 0u) << m;
  EXPECT_NE(m.find(needle), std::string::npos) << m;
  EXPECT_EQ(m.find('\n'), std::string::npos) << m;
}

TEST(CheckPolicyTest, LatencyFlagDefaultsToFdatasyncOverwrite4k) {
  Result<LatencyRule> r = ParseLatencyFlag("10ms", LatencyStat::kP99);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->max_ns, 10'000'000u);
  EXPECT_EQ(r->spec.primitive, probes::Primitive::kFdatasync);
  EXPECT_EQ(r->spec.write_size, 4096u);
  EXPECT_EQ(r->name, "max_p99_fdatasync_overwrite_4096");
  Result<LatencyRule> full = ParseLatencyFlag("odsync:append:8k=2ms", LatencyStat::kP50);
  ASSERT_TRUE(full.ok()) << full.status().message();
  EXPECT_EQ(full->spec.primitive, probes::Primitive::kOdsync);
  EXPECT_EQ(full->spec.pattern, probes::Pattern::kAppend);
  EXPECT_EQ(full->spec.write_size, 8192u);
}

TEST(CheckPolicyTest, LatencyFlagErrors) {
  EXPECT_FALSE(ParseLatencyFlag("10 parsecs", LatencyStat::kP99).ok());
  EXPECT_FALSE(ParseLatencyFlag("2h", LatencyStat::kP99).ok());  // over an hour
  EXPECT_FALSE(ParseLatencyFlag("fsnc:overwrite:4k=1ms", LatencyStat::kP99).ok());
  EXPECT_FALSE(ParseLatencyFlag("dir_fsync:overwrite:4k=1ms", LatencyStat::kP99).ok());
  EXPECT_FALSE(ParseLatencyFlag("fsync=1ms", LatencyStat::kP99).ok());
}

TEST(CheckPolicyTest, CommitFlag) {
  Result<CommitRule> r = ParseCommitFlag("wal:full>=500");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->journal, sqlite_bench::JournalMode::kWal);
  EXPECT_EQ(r->sync, sqlite_bench::Synchronous::kFull);
  EXPECT_DOUBLE_EQ(r->min_commits_per_sec, 500);
  EXPECT_TRUE(ParseCommitFlag("DELETE:NORMAL=20").ok());
  EXPECT_FALSE(ParseCommitFlag("WAL:FULL>=-5").ok());
  EXPECT_FALSE(ParseCommitFlag("WAL:FULL>=0").ok());
  EXPECT_FALSE(ParseCommitFlag("WAL>=5").ok());
  EXPECT_FALSE(ParseCommitFlag("WAL:FAST>=5").ok());
  EXPECT_FALSE(ParseCommitFlag("WAL:FULL>=lots").ok());
}

TEST(CheckPolicyTest, FailOnTakesCodesAndTheLowestSeverity) {
  Policy p;
  ASSERT_TRUE(ParseFailOn({"barrier_disabled", "fail", "warn"}, p).ok());
  EXPECT_EQ(p.fail_on_codes, std::vector<std::string>{"barrier_disabled"});
  EXPECT_EQ(p.fail_on_severity, model::Severity::kWarn);
  EXPECT_FALSE(ParseFailOn({"Not A Code!"}, p).ok());
  EXPECT_FALSE(ParseRequire({"fast_disk"}, p).ok());
}

TEST(CheckPolicyTest, TomlPolicyWithEveryKind) {
  const char* text = R"(# a policy
preset = "sqlite-app"
fail_on = ["warn"]
require = ["not_network_fs"]
file_size = "32MiB"

[[latency]]
name = "wal"
primitive = "fdatasync"
pattern = "preallocated"
size = 2300
p99 = "10ms"
severe = "100ms"

[[rate]]
primitive = "fdatasync"
pattern = "preallocated"
size = "8000"
min = 50

[[slow_syncs]]
over = "1s"
max_count = 0

[commits]
"WAL:NORMAL" = 1000
)";
  Result<Policy> p = ParsePolicy(text, "toml", "gate.toml");
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_EQ(p->latency.size(), 1u);
  EXPECT_EQ(p->latency[0].name, "wal");
  EXPECT_EQ(p->latency[0].spec.write_size, 2300u);
  EXPECT_EQ(p->latency[0].severe_ns, 100'000'000u);
  EXPECT_EQ(p->rates.size(), 1u);
  EXPECT_EQ(p->slow_syncs.size(), 1u);
  EXPECT_EQ(p->commits.size(), 3u);  // the preset's two and WAL/NORMAL
  EXPECT_EQ(p->fail_on_severity, model::Severity::kWarn);
  EXPECT_EQ(p->facts.size(), 1u);
  EXPECT_EQ(p->probe_file_size, 32u << 20);
}

TEST(CheckPolicyTest, EveryRuleTableReadsItsNameTheSameWay) {
  // A string is kept; a number (issue 32 item 16: `name = 5` was read as "5"), an empty or a
  // list name is an error naming the line.
  for (const char* table : {"latency", "rate", "slow_syncs"}) {
    std::string rule = std::string(table) == "latency" ? "p99 = \"10ms\"\n"
                       : std::string(table) == "rate"  ? "min = 50\n"
                                                       : "over = \"1s\"\n";
    std::string head = std::string("[[") + table + "]]\n" + rule;
    Result<Policy> named = ParsePolicy(head + "name = \"wal\"\n", "toml", "p.toml");
    ASSERT_TRUE(named.ok()) << table << ": " << named.status().message();
    std::string key = std::string(table) + "[0].name";
    ExpectError(ParsePolicy(head + "name = \"\"\n", "toml", "p.toml"), "p.toml:3: key '" + key,
                "must not be empty");
    ExpectError(ParsePolicy(head + "name = [1]\n", "toml", "p.toml"), "p.toml:3: key '" + key,
                "a rule's name is a string in quotes");
    ExpectError(ParsePolicy(head + "name = 5\n", "toml", "p.toml"), "p.toml:3: key '" + key,
                "a rule's name is a string in quotes");
    std::string wal_name = std::string(table) == "latency" ? named->latency[0].name
                           : std::string(table) == "rate"  ? named->rates[0].name
                                                           : named->slow_syncs[0].name;
    EXPECT_EQ(wal_name, "wal") << table;
  }
}

TEST(CheckPolicyTest, AProbeRuleCanWorkBetweenItsOperations) {
  // A client whose transactions take 1.5 ms besides the commit: the rate is its commit rate.
  Result<Policy> p =
      ParsePolicy("[[rate]]\nsize = \"8k\"\nwork = \"1500us\"\nmin = 200\n", "toml", "w.toml");
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_EQ(p->rates.size(), 1u);
  EXPECT_EQ(p->rates[0].spec.work_us, 1500u);
  EXPECT_EQ(p->rates[0].spec.write_size, 8192u);
  EXPECT_EQ(p->rates[0].name, "min_rate_fdatasync_overwrite_8192_work_1500us");
  Result<Policy> trips =
      ParsePolicy("[[rate]]\nwork = \"200us\"\nround_trips = 4\nmin = 5\n", "toml", "w.toml");
  ASSERT_TRUE(trips.ok()) << trips.status().message();
  EXPECT_EQ(trips->rates[0].spec.work_round_trips, 4u);
  ExpectError(ParsePolicy("[[rate]]\nround_trips = 4\nmin = 5\n", "toml", "w.toml"),
              "w.toml:1: key 'rate[0]'", "need the work's time");
  ExpectError(
      ParsePolicy("[[rate]]\nwork = \"1ms\"\nround_trips = 65\nmin = 5\n", "toml", "w.toml"),
      "w.toml:3: key 'rate[0].round_trips'", "1 .. 64");
  ExpectError(ParsePolicy("[[rate]]\nwork = \"0us\"\nmin = 5\n", "toml", "w.toml"),
              "w.toml:2: key 'rate[0].work'", "above zero");
  ExpectError(ParsePolicy("[[rate]]\nwork = \"10ns\"\nmin = 5\n", "toml", "w.toml"),
              "w.toml:2: key 'rate[0].work'", "1 us .. 1 s");
  ExpectError(ParsePolicy("[[rate]]\nwork = \"2s\"\nmin = 5\n", "toml", "w.toml"),
              "w.toml:2: key 'rate[0].work'", "1 us .. 1 s");
  ExpectError(ParsePolicy("[[rate]]\nwork = \"soon\"\nmin = 5\n", "toml", "w.toml"),
              "w.toml:2: key 'rate[0].work'", "invalid duration");
}

TEST(CheckPolicyTest, AProbeRuleCanBePacedAtTheDatabasesSyncRate) {
  // etcd under a heavier load than the preset's 150 a second: its WAL syncs 1000 times a second.
  Result<Policy> p = ParsePolicy(
      "[[latency]]\npattern = \"preallocated\"\nsize = 1392\npace = 1000\np99 = \"10ms\"\n", "toml",
      "p.toml");
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_EQ(p->latency.size(), 1u);
  EXPECT_EQ(p->latency[0].spec.paced_per_sec, 1000u);
  EXPECT_EQ(p->latency[0].name, "max_p99_fdatasync_preallocated_1392_at_1000");
  ExpectError(ParsePolicy("[[rate]]\npace = 0\nmin = 5\n", "toml", "p.toml"),
              "p.toml:2: key 'rate[0].pace'", "a pace is a whole 1 .. 100000");
  ExpectError(ParsePolicy("[[rate]]\npace = 2.5\nmin = 5\n", "toml", "p.toml"),
              "p.toml:2: key 'rate[0].pace'", "whole");
  ExpectError(ParsePolicy("[[rate]]\npace = 100\nwork = \"1ms\"\nmin = 5\n", "toml", "p.toml"),
              "p.toml:1: key 'rate[0]'", "paced or does work between operations, not both");
}

TEST(CheckPolicyTest, TomlErrorsNameFileLineAndKey) {
  ExpectError(ParsePolicy("\n\nlatncy = 1\n", "toml", "p.toml"), "p.toml:3: key 'latncy'",
              "unknown key");
  ExpectError(ParsePolicy("[[latency]]\np99 = \"10 parsecs\"\n", "toml", "p.toml"),
              "p.toml:2: key 'latency[0].p99'", "invalid duration");
  ExpectError(ParsePolicy("[[latency]]\np99 = \"10ms\"\nsevere = \"5ms\"\n", "toml", "p.toml"),
              "p.toml:3: key 'latency[0].severe'", "must be above p99");
  ExpectError(ParsePolicy("[[latency]]\np50 = \"20ms\"\np99 = \"10ms\"\n", "toml", "p.toml"),
              "p.toml:2: key 'latency[0].p50'", "never bind");
  ExpectError(ParsePolicy("[[rate]]\nmin = -3\n", "toml", "p.toml"), "p.toml:2: key 'rate[0].min'",
              "above 0");
  ExpectError(ParsePolicy("[[latency]]\np99 = \"1ms\"\nspeed = 3\n", "toml", "p.toml"),
              "p.toml:3: key 'latency[0].speed'", "unknown key");
  ExpectError(ParsePolicy("[commits]\n\"WAL:FULL\" = 0\n", "toml", "p.toml"),
              "p.toml:2: key 'commits.WAL:FULL'", "above 0");
  ExpectError(ParsePolicy("latency = [\n", "toml", "p.toml"), "p.toml:", "");
  // The line of a syntax error is toml++'s source region, not a number read from its message.
  ExpectError(ParsePolicy("[[latency]]\np99 = \"1ms\"\np50 = = 2\n", "toml", "p.toml"),
              "p.toml:3: ", "");
  ExpectError(ParsePolicy("# nothing\n", "toml", "p.toml"), "p.toml:1:", "no rules");
}

TEST(CheckPolicyTest, JsonPolicyAndItsErrors) {
  const char* text = "{\n  \"preset\": \"etcd\",\n  \"commits\": {\"WAL:FULL\": 500}\n}\n";
  Result<Policy> p = ParsePolicy(text, "json", "gate.json");
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->commits.size(), 1u);
  EXPECT_FALSE(p->latency.empty());
  ExpectError(ParsePolicy("{\n  \"preset\": \"etcd\",\n  \"colour\": 1\n}\n", "json", "g.json"),
              "g.json:3: key 'colour'", "unknown key");
  ExpectError(ParsePolicy("{\n  \"preset\": \"etcd\",\n  \"fail_on\": 1,\n", "json", "g.json"),
              "g.json:", "invalid JSON");
  // A number beyond a double threw out of the parser and aborted check (found by the fuzzer;
  // tests/fixtures/fuzz/policy/crash-json-number-overflow).
  ExpectError(ParsePolicy("{\n  \"commits\": {\"WAL:FULL\": 1E999}\n}\n", "json", "g.json"),
              "g.json:2: ", "a number too large");
  // Its line is where the parser stopped, not wherever the same digits first appear.
  ExpectError(ParsePolicy("{\n  \"name\": \"1E999\",\n  \"commits\": {\"WAL:FULL\": 1E999}\n}\n",
                          "json", "g.json"),
              "g.json:3: ", "a number too large");
  ExpectError(ParsePolicy("{\n  \"preset\": \"etcd\",\n  \"fail_on\": ]\n}\n", "json", "g.json"),
              "g.json:3: invalid JSON at byte 36", "");
  // A key or a character quoted from the document stays on the error's one line (fuzzer).
  ExpectError(ParsePolicy("{\"lat\\nency\": 1}", "json", "g.json"),
              "g.json:1: ", "key 'lat\\nency': unknown key");
  ExpectError(ParsePolicy("[[latency]]\nprimitive = i\n", "toml", "g.toml"), "g.toml:2: ", "\\n");
}

TEST(CheckPolicyTest, PresetsAreTheIssuesNumbers) {
  Result<Policy> etcd = Preset("etcd");
  ASSERT_TRUE(etcd.ok());
  ASSERT_EQ(etcd->latency.size(), 2u);
  // What etcd writes per WAL sync and into what file, with bbolt's commits beside it.
  EXPECT_EQ(etcd->latency[0].spec.write_size, 1392u);
  EXPECT_EQ(etcd->latency[0].spec.pattern, probes::Pattern::kPreallocated);
  // At check perf --load=s's commit rate; the slow-sync rule reads the same paced probe, and
  // the backend and OpenShift probes stay back to back.
  EXPECT_EQ(etcd->latency[0].spec.paced_per_sec, 150u);
  EXPECT_EQ(etcd->slow_syncs[0].spec, etcd->latency[0].spec);
  EXPECT_EQ(etcd->latency[1].spec.paced_per_sec, 0u);
  EXPECT_EQ(etcd->rates[0].spec.paced_per_sec, 0u);
  EXPECT_EQ(etcd->latency[0].max_ns, 10'000'000u);
  EXPECT_EQ(etcd->latency[0].severe_ns, 100'000'000u);
  EXPECT_EQ(etcd->latency[1].max_ns, 25'000'000u);
  EXPECT_EQ(etcd->slow_syncs[0].over_ns, 1'000'000'000u);
  EXPECT_EQ(etcd->rates[0].spec.write_size, 8000u);
  EXPECT_DOUBLE_EQ(etcd->rates[0].min_ops_per_sec, 50);
  EXPECT_EQ(etcd->probe_file_size, 64'000'000u);
  EXPECT_DOUBLE_EQ(etcd->companion_syncs_per_sec, 7);
  EXPECT_EQ(etcd->companion_sync_bytes, 36u * 1024);
  Result<Policy> pg = Preset("postgres-wal");
  ASSERT_TRUE(pg.ok());
  EXPECT_TRUE(pg->recommend_wal_sync_method);
  // pg_test_fsync's ten comparisons, the one-client commit, plus the durable rule's plain
  // write (its fdatasync overwrite 4 KiB is not among them).
  EXPECT_EQ(pg->ProbeSpecs().size(), 13u);
  // One pgbench -N client: an 8 KiB WAL page overwritten and fdatasynced after the next
  // transaction's 260 us of work; its ops/s is the client's commit rate, floored at 100.
  ASSERT_EQ(pg->rates.size(), 1u);
  EXPECT_EQ(pg->rates[0].name, "postgres_one_client_commits");
  EXPECT_EQ(pg->rates[0].spec.write_size, 8192u);
  EXPECT_EQ(pg->rates[0].spec.pattern, probes::Pattern::kOverwrite);
  EXPECT_EQ(pg->rates[0].spec.work_us, 260u);
  EXPECT_EQ(pg->rates[0].spec.work_round_trips, 4u);  // pgbench's four round trips a transaction
  EXPECT_EQ(pg->rates[0].spec.paced_per_sec, 0u);
  EXPECT_DOUBLE_EQ(pg->rates[0].min_ops_per_sec, 100);
  EXPECT_TRUE(probes::Validate(pg->rates[0].spec).ok());
  EXPECT_TRUE(pg->durable_rule);
  Result<Policy> app = Preset("sqlite-app");
  ASSERT_TRUE(app.ok());
  EXPECT_EQ(app->commits.size(), 2u);
  EXPECT_TRUE(app->durable_rule);
  EXPECT_TRUE(etcd->durable_rule);
  EXPECT_TRUE(app->fail_on_codes.empty());  // the durable rule, not a list of findings
  EXPECT_FALSE(Preset("mysql").ok());
}

}  // namespace
}  // namespace durprobe::gate
