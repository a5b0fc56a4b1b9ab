#include "analysis/watch_files.h"

#include <algorithm>
#include <cctype>

namespace durprobe::analysis {
namespace {

struct KindRow {
  model::WatchFileKind kind;
  std::string_view name;
  std::string_view phrase;
};

constexpr KindRow kKinds[] = {
    {model::WatchFileKind::kSqliteDatabase, "sqlite_database", "SQLite database"},
    {model::WatchFileKind::kSqliteJournal, "sqlite_journal", "SQLite rollback journal"},
    {model::WatchFileKind::kSqliteWal, "sqlite_wal", "SQLite WAL"},
    {model::WatchFileKind::kDirectory, "directory", "directory"},
    {model::WatchFileKind::kPostgresWal, "postgres_wal", "PostgreSQL WAL segment"},
    {model::WatchFileKind::kPostgresData, "postgres_data", "PostgreSQL data file"},
    {model::WatchFileKind::kEtcdWal, "etcd_wal", "etcd WAL"},
    {model::WatchFileKind::kEtcdSnapshot, "etcd_db", "etcd bbolt database"},
    {model::WatchFileKind::kMysqlRedo, "innodb_redo", "InnoDB redo log"},
    {model::WatchFileKind::kMysqlBinlog, "mysql_binlog", "MySQL binary log"},
    {model::WatchFileKind::kMysqlData, "innodb_data", "InnoDB data file"},
    {model::WatchFileKind::kRocksdbLog, "rocksdb_wal", "RocksDB/LevelDB WAL"},
    {model::WatchFileKind::kRocksdbManifest, "rocksdb_manifest", "RocksDB/LevelDB MANIFEST"},
    {model::WatchFileKind::kRocksdbInfoLog, "rocksdb_info_log", "RocksDB/LevelDB info LOG"},
    {model::WatchFileKind::kOther, "other", "other"},
};
static_assert([] {
  for (std::size_t i = 0; i < std::size(kKinds); ++i) {
    if (kKinds[i].kind != static_cast<model::WatchFileKind>(i)) return false;
  }
  return std::size(kKinds) ==
         static_cast<std::size_t>(model::WatchFileKind::kLastWatchFileKind) + 1;
}());

bool AllOf(std::string_view s, int (*pred)(int)) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [&](char c) {
    return pred(static_cast<unsigned char>(c)) != 0;
  });
}

std::string_view Base(std::string_view path) {
  std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

bool Has(std::string_view path, std::string_view part) {
  return path.find(part) != std::string_view::npos;
}

// PostgreSQL's relation files: base/DBOID/RELFILENODE or global/RELFILENODE, with an optional
// fork (_fsm, _vm, _init) and segment (.1).
bool PostgresRelation(std::string_view path, std::string_view base) {
  if (!Has(path, "/base/") && !Has(path, "/global/")) return false;
  std::string_view name = base.substr(0, base.find('.'));
  name = name.substr(0, name.find('_'));
  return AllOf(name, isdigit);
}

bool EndsWithDigitsAfter(std::string_view base, std::string_view prefix) {
  return base.starts_with(prefix) && AllOf(base.substr(prefix.size()), isdigit);
}

bool MysqlBinlog(std::string_view base) {
  std::size_t dot = base.rfind('.');
  if (dot == std::string_view::npos || base.size() - dot - 1 < 6) return false;
  std::string_view stem = base.substr(0, dot);
  return AllOf(base.substr(dot + 1), isdigit) && (stem == "binlog" || stem.ends_with("-bin"));
}

}  // namespace

model::WatchFileKind ClassifyWatchFile(const std::string& path, bool directory,
                                       const std::set<std::string>& seen) {
  if (directory) return model::WatchFileKind::kDirectory;
  std::string_view p = path;
  std::string_view base = Base(p);
  if (p.ends_with("-journal")) return model::WatchFileKind::kSqliteJournal;
  if (p.ends_with("-wal")) return model::WatchFileKind::kSqliteWal;
  if ((Has(p, "/pg_wal/") || Has(p, "/pg_xlog/")) && base.size() == 24 && AllOf(base, isxdigit)) {
    return model::WatchFileKind::kPostgresWal;
  }
  if (Has(p, "/member/wal/") && base.ends_with(".wal")) return model::WatchFileKind::kEtcdWal;
  if (p.ends_with("/member/snap/db")) return model::WatchFileKind::kEtcdSnapshot;
  if (base.starts_with("ib_logfile") || Has(p, "/#innodb_redo/"))
    return model::WatchFileKind::kMysqlRedo;
  if (MysqlBinlog(base)) return model::WatchFileKind::kMysqlBinlog;
  if (base.ends_with(".ibd") || base.starts_with("ibdata")) return model::WatchFileKind::kMysqlData;
  if (EndsWithDigitsAfter(base, "MANIFEST-")) return model::WatchFileKind::kRocksdbManifest;
  if (base == "LOG") return model::WatchFileKind::kRocksdbInfoLog;
  if (base.ends_with(".log") && AllOf(base.substr(0, base.size() - 4), isdigit)) {
    return model::WatchFileKind::kRocksdbLog;
  }
  if (PostgresRelation(p, base)) return model::WatchFileKind::kPostgresData;
  if (seen.contains(path + "-journal") || seen.contains(path + "-wal")) {
    return model::WatchFileKind::kSqliteDatabase;
  }
  for (std::string_view ext : {".db", ".sqlite", ".sqlite3", ".db3"}) {
    if (base.ends_with(ext)) return model::WatchFileKind::kSqliteDatabase;
  }
  return model::WatchFileKind::kOther;
}

std::string_view WatchFileKindName(model::WatchFileKind kind) {
  return kKinds[static_cast<std::size_t>(kind)].name;
}

std::string_view WatchFileKindPhrase(model::WatchFileKind kind) {
  return kKinds[static_cast<std::size_t>(kind)].phrase;
}

}  // namespace durprobe::analysis
