// The reader of targets[].mount in a saved report (the writer is codec/mount_json.h).
#pragma once

#include "codec/json_fields.h"
#include "platform/mount_info.h"

namespace durprobe::codec {

platform::MountInfo ReadMount(const JsonFields& f);

}  // namespace durprobe::codec
