#include "sqlite_bench/rows.h"

#include <gtest/gtest.h>

#include "sqlite_bench/sqlite_db.h"

namespace durprobe::sqlite_bench {
namespace {

class RowsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Db::Open(":memory:", nullptr);
    ASSERT_TRUE(db.ok()) << db.status().message();
    db_ = std::move(*db);
    ASSERT_TRUE(db_->Exec(kCreateTableSql).ok());
    auto insert = db_->Prepare(kInsertSql);
    ASSERT_TRUE(insert.ok());
    std::string payload;
    for (std::uint64_t id = 1; id <= 50; ++id) {
      FillPayload(id, &payload, 100);
      sqlite3_bind_int64(insert->get(), 1, static_cast<sqlite3_int64>(id));
      sqlite3_bind_blob(insert->get(), 2, payload.data(), 100, SQLITE_TRANSIENT);
      ASSERT_EQ(sqlite3_step(insert->get()), SQLITE_DONE);
      sqlite3_reset(insert->get());
      expected_.Add(id, payload.data(), payload.size());
    }
  }
  std::unique_ptr<Db> db_;
  RowChecksum expected_;
};

TEST(PayloadTest, IsDeterministicAndDiffersBetweenRows) {
  std::string a, b, c;
  FillPayload(7, &a, 100);
  FillPayload(7, &b, 100);
  FillPayload(8, &c, 100);
  EXPECT_EQ(a.size(), 100u);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  FillPayload(7, &a, 3);
  EXPECT_EQ(a.size(), 3u);
}

TEST_F(RowsTest, IntactTableVerifies) { EXPECT_TRUE(VerifyTable(db_->get(), expected_).ok()); }

TEST_F(RowsTest, AnAlteredByteIsAChecksumMismatch) {
  ASSERT_TRUE(db_->Exec("UPDATE events SET payload = zeroblob(100) WHERE id = 17").ok());
  Status s = VerifyTable(db_->get(), expected_);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("checksum mismatch"), std::string::npos) << s.message();
}

TEST_F(RowsTest, ALostRowIsAMismatch) {
  ASSERT_TRUE(db_->Exec("DELETE FROM events WHERE id = 50").ok());
  Status s = VerifyTable(db_->get(), expected_);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("inserted 50 rows"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("read back 49 rows"), std::string::npos) << s.message();
}

TEST_F(RowsTest, SwappedPayloadsAreAMismatch) {
  ASSERT_TRUE(
      db_->Exec("UPDATE events SET id = -1 WHERE id = 1; UPDATE events SET id = 1 WHERE id = 2;"
                "UPDATE events SET id = 2 WHERE id = -1")
          .ok());
  EXPECT_FALSE(VerifyTable(db_->get(), expected_).ok());
}

}  // namespace
}  // namespace durprobe::sqlite_bench
