#include "run/writers_plan.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>

#include "probes/concurrency.h"
#include "run/budget.h"

namespace durprobe::run {

Result<std::vector<std::uint32_t>> ParseWriters(const std::vector<std::string>& items) {
  std::vector<std::uint32_t> counts{1};
  if (items.empty()) {
    return Status::InvalidArgument(
        "--writers is empty: give writer counts (--writers 1,2,4) or --writers default");
  }
  for (const std::string& given : items) {
    // Spaces around a count are accepted on either side (' 2' and '2 ' alike).
    std::size_t first = given.find_first_not_of(" \t");
    std::string item = first == std::string::npos
                           ? ""
                           : given.substr(first, given.find_last_not_of(" \t") + 1 - first);
    if (item.empty()) {
      return Status::InvalidArgument(
          "--writers has an empty count: give writer counts (--writers 1,2,4) or --writers "
          "default");
    }
    if (item == "default") {
      for (std::uint32_t n : probes::DefaultWriterCounts()) counts.push_back(n);
      continue;
    }
    char* end = nullptr;
    long n = std::strtol(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || n < 1 || n > probes::kMaxWriters) {
      return Status::InvalidArgument(
          fmt::format("--writers: '{}' is not a writer count in 1..{} (or 'default')", item,
                      probes::kMaxWriters));
    }
    counts.push_back(static_cast<std::uint32_t>(n));
  }
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

std::size_t CellCount(const WritersRequest& o) {
  if (!o.asked()) return 0;
  Result<std::vector<std::uint32_t>> writers = ParseWriters(o.writers);
  if (!writers.ok()) return 0;
  std::size_t modes = o.modes.empty() ? probes::AllWriterModes().size() : o.modes.size();
  return writers->size() * modes + 1;
}

Result<ConcurrencyPlan> MakeConcurrencyPlan(const WritersRequest& o, std::uint64_t budget_ns,
                                            std::uint64_t queue_depth_file_size) {
  Result<std::vector<std::uint32_t>> writers = ParseWriters(o.writers);
  if (!writers.ok()) return writers.status();
  ConcurrencyPlan plan;
  if (!o.modes.empty()) {
    plan.modes.clear();
    for (probes::WriterMode m : probes::AllWriterModes()) {
      if (std::find(o.modes.begin(), o.modes.end(), probes::NameOf(m)) != o.modes.end()) {
        plan.modes.push_back(m);
      }
    }
  }
  plan.primitive = probes::PrimitiveNames().at(o.primitive);
  plan.write_size = o.write_size;
  if (Status s = probes::Validate(
          probes::ConcurrencySpec{1, plan.modes.front(), plan.primitive, plan.write_size});
      !s.ok()) {
    return Status::InvalidArgument("--writers-primitive: " + s.message());
  }
  ConcurrencySplit split = SplitConcurrency(budget_ns, *writers, plan.modes.size());
  plan.writers = split.writers;
  plan.dropped_writers = split.dropped;
  plan.rule.warmup_ops = kConcurrencyWarmupOps;
  plan.rule.warmup_ns = split.cell_ns / 10;
  plan.rule.max_ns = split.cell_ns;
  plan.rule.min_ns = split.cell_ns;  // every cell runs its whole slice: no early stop
  plan.rule.target_ci = 0.0;
  plan.queue_depth_ns = split.cell_ns;
  plan.queue_depth_file_size = queue_depth_file_size;
  return plan;
}

Status CheckWritersPatterns(const WritersRequest& o, const std::vector<std::string>& patterns) {
  if (!o.asked()) return Status::Ok();
  std::vector<std::string> other;
  for (const std::string& p : patterns) {
    if (p != "overwrite") other.push_back(p);
  }
  if (other.empty()) return Status::Ok();
  return Status::InvalidArgument(fmt::format(
      "--writers measures overwrites only (each writer overwrites its own file in place), not "
      "--patterns {}: run the patterns and --writers separately",
      fmt::join(other, ",")));
}

}  // namespace durprobe::run
