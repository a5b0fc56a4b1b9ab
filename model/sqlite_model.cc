#include "model/sqlite_model.h"

#include "platform/enum_table.h"

namespace durprobe::model {

constexpr platform::TextRow<CorrelationBasis> kCorrelationBasisNames[] = {
    {CorrelationBasis::kProbes, "probes"},
    {CorrelationBasis::kProbesAtReference, "probes_at_reference"},
    {CorrelationBasis::kSqliteSyncTiming, "sqlite_sync_timing"},
};
static_assert(platform::OneRowPerValue(kCorrelationBasisNames, kLastCorrelationBasis),
              "one name per CorrelationBasis");

std::string_view NameOf(CorrelationBasis b) { return platform::TextIn(kCorrelationBasisNames, b); }

}  // namespace durprobe::model
