#include "sqlite_bench/rows.h"

#include <fmt/format.h>

#include "sqlite_bench/sqlite_db.h"

namespace durprobe::sqlite_bench {
namespace {

std::uint64_t SplitMix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

void FillPayload(std::uint64_t id, std::string* payload, std::size_t size) {
  payload->resize(size);
  std::uint64_t state = id * 0x100000001b3ull;
  for (std::size_t i = 0; i < size; i += 8) {
    state = SplitMix(state);
    for (std::size_t b = 0; b < 8 && i + b < size; ++b) {
      (*payload)[i + b] = static_cast<char>((state >> (8 * b)) & 0xff);
    }
  }
}

void RowChecksum::Add(std::uint64_t id, const void* payload, std::size_t size) {
  auto mix = [this](unsigned char byte) {
    hash_ ^= byte;
    hash_ *= 1099511628211ull;
  };
  for (int b = 0; b < 8; ++b) mix(static_cast<unsigned char>((id >> (8 * b)) & 0xff));
  const auto* p = static_cast<const unsigned char*>(payload);
  for (std::size_t i = 0; i < size; ++i) mix(p[i]);
  ++rows_;
}

Status VerifyTable(sqlite3* db, const RowChecksum& expected) {
  sqlite3_stmt* raw = nullptr;
  int rc = sqlite3_prepare_v2(db, "SELECT id, payload FROM events ORDER BY id", -1, &raw, nullptr);
  if (rc != SQLITE_OK) return SqliteError(db, rc, "verify: prepare");
  Statement stmt(raw);
  RowChecksum got;
  while ((rc = sqlite3_step(raw)) == SQLITE_ROW) {
    std::uint64_t id = static_cast<std::uint64_t>(sqlite3_column_int64(raw, 0));
    const void* blob = sqlite3_column_blob(raw, 1);
    int n = sqlite3_column_bytes(raw, 1);
    got.Add(id, blob, static_cast<std::size_t>(n));
  }
  if (rc != SQLITE_DONE) return SqliteError(db, rc, "verify: read back");
  if (got.rows() != expected.rows() || got.value() != expected.value()) {
    return Status::Error(fmt::format(
        "checksum mismatch: inserted {} rows with checksum {:016x}, read back {} rows with {:016x}",
        expected.rows(), expected.value(), got.rows(), got.value()));
  }
  return Status::Ok();
}

}  // namespace durprobe::sqlite_bench
