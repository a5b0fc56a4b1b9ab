#include "sqlite_bench/commit_result.h"

namespace durprobe::sqlite_bench {

VfsCounts CommitResult::AllCounts() const {
  VfsCounts all = setup_counts;
  all += commit_counts;
  all += checkpoints.counts;
  all += verify_counts;
  return all;
}

}  // namespace durprobe::sqlite_bench
