#include "cli/writers_options.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>

#include "cli/standard_options.h"
#include "cli/validators.h"
#include "run/budget.h"

namespace durprobe::cli {
namespace {

// Each writer count's share of the concurrency phase's per-cell time goes to warm-up first.
constexpr std::uint64_t kWarmupOps = 5;

}  // namespace

void AddWritersOptions(CLI::App& app, WritersOptions& o) {
  AddListOption(app, "--writers", o.writers,
                "Concurrent syncers: writer counts, e.g. 1,2,4,8,16 or 'default' (threads, "
                "processes and one shared file), plus random 4 KiB at queue depth 32")
      ->type_name("LIST");
  AddListOption(app, "--writers-modes", o.modes,
                "With --writers: threads, processes, shared_file (default all three)")
      ->transform(OneOf(KeysOf(probes::WriterModeNames()), "writer mode"));
  app.add_option("--writers-primitive", o.primitive,
                 "With --writers: the sync primitive each writer uses")
      ->capture_default_str()
      ->transform(OneOf(KeysOf(probes::PrimitiveNames()), "primitive"));
}

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

std::size_t CellCount(const WritersOptions& o) {
  if (!o.asked()) return 0;
  Result<std::vector<std::uint32_t>> writers = ParseWriters(o.writers);
  if (!writers.ok()) return 0;
  std::size_t modes = o.modes.empty() ? probes::AllWriterModes().size() : o.modes.size();
  return writers->size() * modes + 1;
}

Result<run::ConcurrencyPlan> MakeConcurrencyPlan(const WritersOptions& o, std::uint64_t budget_ns,
                                                 std::uint64_t queue_depth_file_size) {
  Result<std::vector<std::uint32_t>> writers = ParseWriters(o.writers);
  if (!writers.ok()) return writers.status();
  run::ConcurrencyPlan plan;
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
  run::ConcurrencySplit split = run::SplitConcurrency(budget_ns, *writers, plan.modes.size());
  plan.writers = split.writers;
  plan.dropped_writers = split.dropped;
  plan.rule.warmup_ops = kWarmupOps;
  plan.rule.warmup_ns = split.cell_ns / 10;
  plan.rule.max_ns = split.cell_ns;
  plan.rule.min_ns = split.cell_ns;  // every cell runs its whole slice: no early stop
  plan.rule.target_ci = 0.0;
  plan.queue_depth_ns = split.cell_ns;
  plan.queue_depth_file_size = queue_depth_file_size;
  return plan;
}

Status CheckWritersPatterns(const WritersOptions& o, const std::vector<std::string>& patterns) {
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

}  // namespace durprobe::cli
