#include "analysis/durability_risk.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/crashtest_agreement.h"

namespace durprobe::analysis {

std::vector<std::string> NotDurableCodes(const model::Target& target) {
  if (!target.durability || target.durability->verdict != model::DurabilityVerdict::kNotDurable) {
    return {};
  }
  if (!target.durability->findings.empty()) return target.durability->findings;
  return {std::string(DecidingLayerName(*target.durability))};
}

model::RowRisk RiskOf(sqlite_bench::JournalMode journal, sqlite_bench::Synchronous sync,
                      const std::optional<model::Durability>& durability) {
  sqlite_bench::Risk documented = sqlite_bench::PowerLossRisk(journal, sync);
  model::RowRisk risk;
  risk.documented_level = documented.level;
  risk.level = risk.documented_level;
  risk.summary = std::string(documented.summary);
  if (!durability) return risk;
  const model::Durability& d = *durability;
  std::vector<std::string> codes = d.findings;
  if (codes.empty() && d.deciding_layer) codes.emplace_back(NameOf(*d.deciding_layer));
  if (d.verdict == model::DurabilityVerdict::kNotDurable) {
    risk.level = sqlite_bench::RiskLevel::kNotDurable;
    risk.summary = fmt::format("durability not provided here ({})", fmt::join(codes, ", "));
    if (risk.documented_level == sqlite_bench::RiskLevel::kCorruption)
      risk.summary += "; corruption possible";
    risk.findings = std::move(codes);
    return risk;
  }
  if (d.verdict == model::DurabilityVerdict::kUnproven) {
    risk.findings = std::move(codes);
    if (risk.documented_level != sqlite_bench::RiskLevel::kCorruption) {
      risk.summary = fmt::format("{} if syncs reach stable storage (unproven: {})",
                                 documented.summary, DecidingLayerName(d));
    }
  }
  return risk;
}

void AssessRisks(model::Target& target) {
  for (model::SqliteEntry& e : target.sqlite) {
    e.risk = RiskOf(e.result.config.journal, e.result.config.sync, target.durability);
    std::string tested = CrashtestCitation(target, e.result.config.journal, e.result.config.sync);
    if (!tested.empty()) e.risk.summary += "; " + tested;
  }
}

}  // namespace durprobe::analysis
