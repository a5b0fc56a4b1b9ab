#include "model/powercut.h"

#include "platform/enum_table.h"

namespace durprobe::model {

constexpr platform::TextRow<PowercutVerdict> kPowercutVerdictNames[] = {
    {PowercutVerdict::kPassed, "passed"},
    {PowercutVerdict::kFailed, "failed"},
};
static_assert(platform::OneRowPerValue(kPowercutVerdictNames, kLastPowercutVerdict),
              "one name per PowercutVerdict");

std::string_view NameOf(PowercutVerdict v) { return platform::TextIn(kPowercutVerdictNames, v); }

}  // namespace durprobe::model
