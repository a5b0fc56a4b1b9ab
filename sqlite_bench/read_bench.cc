// Read path: primary-key point lookups, under SQLite's defaults and with cache_size and mmap_size
// raised, on a 100k-row table, file database with several cache settings, :memory:, and a
// cold run right after the database file's pages were dropped from the OS page cache.
#include "sqlite_bench/read_bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "platform/interrupt.h"
#include "probes/histogram.h"
#include "sqlite_bench/kv_table.h"
#include "sqlite_bench/workloads.h"

namespace durprobe::sqlite_bench {
namespace {

// Seed 003's values: a 64 MB page cache (negative: KiB) and 256 MiB of memory-mapped I/O.
constexpr std::int64_t kBigCacheKib = -64000;
constexpr std::int64_t kMmapBytes = 268435456;
// A cold run times only the first lookups after the drop: later ones find their pages cached
// again, and the run would drift into a warm one.
constexpr std::uint64_t kColdQueries = 2000;

struct Variant {
  const char* name;
  bool memory = false;
  bool cold = false;
  std::int64_t cache_size = 0;  // 0: SQLite's default
  std::int64_t mmap_size = 0;   // 0: SQLite's default (off)
};

constexpr Variant kVariants[] = {
    {"defaults"},
    {"cache_64mb", false, false, kBigCacheKib, 0},
    {"mmap_256mb", false, false, 0, kMmapBytes},
    {"cache_mmap", false, false, kBigCacheKib, kMmapBytes},
    {"memory", true},
    {"cold", false, true},
};

Status Fail(ReadResult* r, Status s) {
  r->outcome = s.kind() == Status::Kind::kInterrupted ? probes::Outcome::kInterrupted
               : s.unsupported()                      ? probes::Outcome::kUnsupported
                                                      : probes::Outcome::kError;
  r->reason = s.message();
  return s;
}

// The timed loop: random keys (fixed seed, as the seed's script), each value checked untimed.
Status Lookups(platform::Platform& platform, Db& db, std::uint64_t rows, std::uint64_t max_queries,
               std::uint64_t deadline, ReadResult* r) {
  Result<Statement> stmt = db.Prepare(kKvLookupSql);
  if (!stmt.ok()) return stmt.status();
  sqlite3_stmt* s = stmt->get();
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<std::uint64_t> pick(0, rows - 1);
  probes::Histogram latency;
  std::string key, expected;
  std::uint64_t total_ns = 0;
  for (std::uint64_t q = 0; q < max_queries; ++q) {
    if ((q & 1023) == 0) {
      if (int sig = platform::InterruptSignal(); sig != 0) return Status::Interrupted(sig);
      if (q > 0 && platform.NowNanos() >= deadline) break;
    }
    std::uint64_t i = pick(rng);
    key = KvKey(i);
    std::uint64_t t0 = platform.NowNanos();
    sqlite3_bind_text(s, 1, key.data(), static_cast<int>(key.size()), SQLITE_STATIC);
    int rc = sqlite3_step(s);
    const unsigned char* v = rc == SQLITE_ROW ? sqlite3_column_text(s, 0) : nullptr;
    int n = v ? sqlite3_column_bytes(s, 0) : 0;
    std::uint64_t t1 = platform.NowNanos();
    KvValue(i, &expected);
    bool match = v && expected.compare(0, std::string::npos, reinterpret_cast<const char*>(v),
                                       static_cast<std::size_t>(n)) == 0;
    sqlite3_reset(s);
    if (rc != SQLITE_ROW) return SqliteError(db.get(), rc, "lookup " + key);
    if (!match)
      return Status::Error(fmt::format("lookup {} returned a value it was not given", key));
    latency.Record(t1 - t0);
    total_ns += t1 - t0;
    ++r->queries;
  }
  r->seconds = double(total_ns) / 1e9;
  r->queries_per_sec = total_ns ? double(r->queries) * 1e9 / double(total_ns) : 0.0;
  r->latency = probes::Summarize(latency);
  return Status::Ok();
}

Status DropDatabaseCache(platform::Platform& platform, const std::string& path) {
  Result<platform::FileHandle> file = platform.Open(path, platform::OpenFlags{.read_only = true});
  if (!file.ok()) return file.status();
  return platform.DropCache(file->get());
}

Status RunVariant(platform::Platform& platform, const std::string& path, const Variant& v,
                  const WorkloadOptions& o, std::uint64_t deadline, ReadResult* r) {
  r->variant = v.name;
  r->database = v.memory ? "memory" : "file";
  r->cold = v.cold;
  if (v.cold) {
    Status dropped = DropDatabaseCache(platform, path);
    if (!dropped.ok()) {
      return dropped.unsupported()
                 ? Status::Unsupported("cannot drop the page cache here: " + dropped.message())
                 : dropped;
    }
    r->cold_note = fmt::format(
        "first {} lookups after POSIX_FADV_DONTNEED on the database file; on a filesystem that "
        "keeps files only in memory (tmpfs) nothing is dropped and this equals a warm run",
        kColdQueries);
  }
  Result<std::unique_ptr<Db>> db = Db::Open(v.memory ? ":memory:" : path, nullptr);
  if (!db.ok()) return db.status();
  if (v.memory) {
    if (Status s = PopulateKv(**db, o.kv_rows); !s.ok()) return s;
  }
  if (v.cache_size != 0) {
    if (Status s = (*db)->Exec(fmt::format("PRAGMA cache_size={}", v.cache_size)); !s.ok())
      return s;
  }
  if (v.mmap_size != 0) {
    if (Status s = (*db)->Exec(fmt::format("PRAGMA mmap_size={}", v.mmap_size)); !s.ok()) return s;
  }
  Result<std::string> journal = (*db)->QueryText("PRAGMA journal_mode");
  Result<std::int64_t> cache = PragmaInt(**db, "PRAGMA cache_size");
  // An in-memory database has no file to map: SQLite answers mmap_size with no row.
  Result<std::int64_t> mmap =
      v.memory ? Result<std::int64_t>(std::int64_t{0}) : PragmaInt(**db, "PRAGMA mmap_size");
  if (!journal.ok()) return journal.status();
  if (!cache.ok()) return cache.status();
  if (!mmap.ok()) return mmap.status();
  r->journal_mode = *journal;
  r->cache_size = *cache;
  r->mmap_size = *mmap;
  if (v.memory) {
    Result<std::uint64_t> rows = VerifyKv(**db, o.kv_rows);
    if (!rows.ok()) return rows.status();
    r->rows = *rows;
  } else {
    r->rows = o.kv_rows;  // verified once after population, so a cold run starts cold
  }
  std::uint64_t max_queries = v.cold ? std::min(o.max_queries, kColdQueries) : o.max_queries;
  if (Status s = Lookups(platform, **db, o.kv_rows, max_queries, deadline, r); !s.ok()) return s;
  return (*db)->Close();
}

// The file database, in WAL mode as applications that read while writing run it, checkpointed
// so every page is in the main file (the one a cold run drops from the page cache).
Status Prepare(const std::string& path, std::uint64_t rows) {
  Result<std::unique_ptr<Db>> db = Db::Open(path, nullptr);
  if (!db.ok()) return db.status();
  if (Status s = (*db)->Exec("PRAGMA journal_mode=WAL"); !s.ok()) return s;
  if (Status s = PopulateKv(**db, rows); !s.ok()) return s;
  Result<std::uint64_t> verified = VerifyKv(**db, rows);
  if (!verified.ok()) return verified.status();
  if (Status s = (*db)->Exec("PRAGMA wal_checkpoint(TRUNCATE)"); !s.ok()) return s;
  return (*db)->Close();
}

}  // namespace

std::vector<ReadResult> RunReadWorkload(platform::Platform& platform, const std::string& dir,
                                        const WorkloadOptions& o) {
  std::vector<ReadResult> results;
  std::string path = dir + "/read.db";
  RemoveDatabaseFiles(platform, path);
  std::uint64_t start = platform.NowNanos();
  Status prepared = Prepare(path, o.kv_rows);
  // Population takes a share of the budget; the variants split what is left.
  std::uint64_t used = platform.NowNanos() - start;
  std::uint64_t left = o.budget_ns > used ? o.budget_ns - used : 0;
  std::uint64_t per_variant = left / std::size(kVariants);
  for (const Variant& v : kVariants) {
    ReadResult r;
    if (!prepared.ok()) {
      r.variant = v.name;
      r.database = v.memory ? "memory" : "file";
      (void)Fail(&r, prepared);  // kept in r, the variant's row
    } else {
      std::uint64_t deadline = platform.NowNanos() + per_variant;
      Status s = RunVariant(platform, path, v, o, deadline, &r);
      if (!s.ok()) (void)Fail(&r, s);
    }
    results.push_back(r);
    if (r.outcome == probes::Outcome::kInterrupted) break;
  }
  RemoveDatabaseFiles(platform, path);
  return results;
}

}  // namespace durprobe::sqlite_bench
