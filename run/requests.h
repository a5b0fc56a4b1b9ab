// What a measuring command asks for, as plain values: the command line's words (names, sizes
// and shares as typed), not yet checked against each other. cli/ parses its options into these
// and nothing more; the plan builders (run/part_plans.h, run/command_plans.h) check them and turn
// them into a Plan, so every default and every split is reachable from a unit test.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace durprobe::run {

// --quick, --budget, --repeat and --no-flush-count: what every measuring command shares.
struct BudgetRequest {
  bool quick = false;
  std::string budget;           // a duration; "" means the command's default (run/command_plans.h)
  int repeat = 1;               // --repeat: the measurement this many times, the budget each time's
  bool no_flush_count = false;  // --no-flush-count: Plan::count_flushes off
};

// --writers, --writers-modes, --writers-primitive: the concurrency phase.
struct WritersRequest {
  std::vector<std::string> writers;  // counts, or "default" (1,2,4,8,16); empty: not asked
  std::vector<std::string> modes;    // empty: threads, processes, shared_file
  std::string primitive = "fdatasync";
  std::uint64_t write_size = 4096;  // not a flag: check's concurrency rules set it
  bool asked() const { return !writers.empty(); }
};

// The probe selection of run, probe and compare.
struct ProbeRequest {
  std::vector<std::string> primitives;  // names; empty: the default set
  std::vector<std::string> patterns;    // names; empty: each primitive's own
  std::vector<std::string> sizes;       // sizes as typed; empty: 4 KiB
  double target_ci_percent = 5.0;
  std::string file_size;   // overwrite region and append cap; "" = 16 MiB
  WritersRequest writers;  // --writers: the concurrency phase
  bool pg = false;         // probe --pg: pg_test_fsync's probes and table
};

// The commit matrix of run, sqlite and compare.
struct SqliteMatrixRequest {
  std::vector<std::string> journal_modes;  // lower-case names; empty: DELETE, WAL
  std::vector<std::string> synchronous;    // empty: FULL, NORMAL, OFF
  bool all = false;
  std::vector<std::string> batches{"1"};
  std::vector<std::string> statements{"reused"};
  std::string payload = "100";
  std::uint32_t repetitions = 5;
  std::uint64_t commits = 0;  // fixed commits per repetition (0: by budget)
  std::uint64_t warmup = 20;
};

// "commits" names the commit matrix, so it can run beside the workloads; "all" is every
// workload of sqlite_bench/workloads.h (not the matrix).
inline constexpr const char* kCommitsWorkload = "commits";

// sqlite --workloads and the concurrency workload's options.
struct SqliteWorkloadRequest {
  std::vector<std::string> workloads;  // lower-case names; empty: only the commit matrix
  std::uint32_t threads = 10;
  std::uint32_t processes = 4;
  std::string write_share = "1/3";
};

// crashsim's configurations and simulated device; sqlite --crashsim shares all but the
// configurations (the matrix's).
struct CrashsimRequest {
  std::vector<std::string> journal_modes;  // lower-case; empty: delete, truncate, persist, wal
  std::vector<std::string> synchronous;    // empty: off, normal, full, extra
  std::vector<std::string> batches{"1"};
  std::uint32_t trials = 100;  // per configuration
  std::uint64_t seed = 1;
  std::uint32_t commits = 12;       // per trial
  std::vector<std::string> device;  // atomic_sectors, safe_append, sequential, ordered_metadata
  bool no_psow = false;             // tell SQLite the storage lacks powersafe overwrite
};

// `durprobe sqlite`: the matrix, the workloads beside it, and crashsim after it.
struct SqliteRequest {
  SqliteMatrixRequest matrix;
  SqliteWorkloadRequest workloads;
  bool no_probes = false;
  bool crashsim = false;  // simulated power cuts for the same configurations, after the matrix
  CrashsimRequest crashsim_options;
};

// `durprobe compare`.
struct CompareRequest {
  ProbeRequest probe;
  SqliteMatrixRequest matrix;
  bool no_sqlite = false;
  int rounds = 3;
};

// `durprobe check`, beside its policy (gate/policy.h), which cli/ reads.
struct CheckRequest {
  std::string background_load;  // "R,W" IOPS; "" none asked
  WritersRequest writers;       // --writers; the policy's concurrency rules add theirs
};

// `durprobe crashtest`: the configurations (crashsim's), the crash device's cache and the
// filesystem it makes, and one reported state to rebuild.
struct CrashtestRequest {
  std::vector<std::string> journal_modes;  // lower-case; empty with synchronous empty: the default
  std::vector<std::string> synchronous;
  std::vector<std::string> batches{"1"};
  std::size_t states = 200;  // per configuration
  std::uint64_t seed = 1;
  std::uint32_t commits = 30;
  std::string device = "honest";  // honest, ignores-flush, torn
  std::string fs;                 // empty: the path's own
  std::string mount_options;
  std::string state;  // a reported state's words: rebuild and check only it
  std::string log;    // the log the state was reported on (its row's `log`)
};

// `durprobe faults`.
struct FaultsRequest {
  std::vector<std::string> filesystems;  // TYPE or TYPE:OPTIONS; empty: the path's own
  std::string mount_options;             // for each filesystem that names none
  bool sqlite = true;                    // SQLite's COMMIT on a failing sync too
};

// `powercut witness`: where it listens and logs, and for how long.
struct PowercutWitnessRequest {
  std::string listen;                // ADDR:PORT
  std::string log;                   // the log file
  std::string duration;              // --for; "" until a signal
  std::string idle_timeout = "30s";  // --idle-timeout
};

// `powercut write`: the witness, what each record is and how it is made durable.
struct PowercutWriteRequest {
  std::string witness;                  // ADDR:PORT
  std::string mode = "file";            // file, append, sqlite
  std::string primitive = "fdatasync";  // file and append modes
  std::string journal_mode = "wal";     // sqlite mode
  std::string synchronous = "full";     // sqlite mode
  std::string record_size = "4k";
  std::string file_size = "64MiB";
  std::uint64_t max_outstanding = 1024;
  std::string duration;  // --for; "" until the power goes
};

// `powercut verify`: the witness, the run, and how long the whole exchange may take.
struct PowercutVerifyRequest {
  std::string witness;  // ADDR:PORT
  std::string run_id;   // "" the only run under the path
  std::string timeout = "5m";
};

}  // namespace durprobe::run
