// The reader of targets[].mount in a saved report (the writer is report/codec/mount_json.h).
#pragma once

#include "platform/mount_info.h"
#include "report/codec/json_fields.h"

namespace durprobe::report {

platform::MountInfo ReadMount(const JsonFields& f);

}  // namespace durprobe::report
