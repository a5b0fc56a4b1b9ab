// The sync calls' names (every OS: the document names them wherever it is read).
#include "platform/enum_table.h"
#include "platform/sync_observer.h"

namespace durprobe::platform {
namespace {

constexpr TextRow<ObservedCall> kNames[] = {
    {ObservedCall::kFsync, "fsync"},
    {ObservedCall::kFdatasync, "fdatasync"},
    {ObservedCall::kSyncFileRange, "sync_file_range"},
    {ObservedCall::kSyncfs, "syncfs"},
    {ObservedCall::kMsync, "msync"},
    {ObservedCall::kPwritev2Sync, "pwritev2_sync"},
    {ObservedCall::kOsyncWrite, "osync_write"},
    {ObservedCall::kUringFsync, "io_uring_fsync"},
    {ObservedCall::kUringSyncFileRange, "io_uring_sync_file_range"},
};
static_assert(OneRowPerValue(kNames, ObservedCall::kLastObservedCall));

}  // namespace

std::string_view ObservedCallName(ObservedCall call) { return TextIn(kNames, call); }

}  // namespace durprobe::platform
