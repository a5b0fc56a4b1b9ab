#include "report/analysis/durability_risk.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace durprobe::report {
namespace {

// report/analysis/mount_findings.cc and report/analysis/plausibility.cc raise these.
constexpr std::string_view kVoiding[] = {
    "sync_noop_memory_fs",            // tmpfs, ramfs, or an overlay whose upper layer is one
    "barrier_disabled",               // nobarrier / barrier=0: no cache flush
    "sync_noop_suspected",            // a sync costs no more than a plain write
    "ld_preload_eatmydata",           // an interposed library that makes fsync a no-op
    "overlay_volatile",               // overlayfs volatile: syncs of the upper layer skipped
    "fuse_overlayfs_fsync_disabled",  // fuse-overlayfs fsync=0
    "zfs_sync_disabled",              // ZFS sync=disabled
};
constexpr std::string_view kQualifying[] = {
    "sync_faster_than_device",  // faster than the device can flush: a volatile cache absorbs it
    "ld_preload_set",           // a preloaded library that could intercept syncs
};

template <std::size_t N>
bool In(const std::string_view (&set)[N], std::string_view code) {
  return std::find(std::begin(set), std::end(set), code) != std::end(set);
}

std::vector<std::string> CodesWhere(const std::vector<Finding>& findings,
                                    bool (*keep)(std::string_view)) {
  std::vector<std::string> codes;
  for (const Finding& f : findings) {
    if (keep(f.code) && std::find(codes.begin(), codes.end(), f.code) == codes.end()) {
      codes.push_back(f.code);
    }
  }
  return codes;
}

}  // namespace

bool VoidsDurability(std::string_view code) { return In(kVoiding, code); }
bool QualifiesDurability(std::string_view code) { return In(kQualifying, code); }

std::vector<std::string> NotDurableCodes(const std::vector<Finding>& findings) {
  return CodesWhere(findings, VoidsDurability);
}

RowRisk RiskOf(sqlite_bench::JournalMode journal, sqlite_bench::Synchronous sync,
               const std::vector<Finding>& findings) {
  sqlite_bench::Risk documented = sqlite_bench::PowerLossRisk(journal, sync);
  RowRisk risk;
  risk.documented_level = std::string(documented.level);
  risk.level = risk.documented_level;
  risk.summary = std::string(documented.summary);
  if (std::vector<std::string> voiding = NotDurableCodes(findings); !voiding.empty()) {
    risk.level = "not_durable";
    risk.summary = fmt::format("durability not provided here ({})", fmt::join(voiding, ", "));
    if (risk.documented_level == "corruption") risk.summary += "; corruption possible";
    risk.findings = std::move(voiding);
    return risk;
  }
  risk.findings = CodesWhere(findings, QualifiesDurability);
  if (!risk.findings.empty() && risk.documented_level != "corruption") {
    risk.summary = fmt::format("{} if syncs reach stable storage ({})", documented.summary,
                               fmt::join(risk.findings, ", "));
  }
  return risk;
}

void AssessRisks(Target& target) {
  for (SqliteEntry& e : target.sqlite) {
    e.risk = RiskOf(e.result.config.journal, e.result.config.sync, target.findings);
  }
}

}  // namespace durprobe::report
