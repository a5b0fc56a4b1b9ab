// The knowledge table. Each row: key, title, specificity, the signature (which measurements the
// cause moves on the side that has it, and how much that weighs), whether that side keeps
// nothing on power loss, when a pair shows it, the advice, and the report keys it stands for.
#include "explain/cause_table.h"

#include "explain/cause_matchers.h"

namespace durprobe::explain {
namespace {

using E = Expect;
using S = Signal;
namespace m = matchers;

}  // namespace

std::string SyncPathOf(const std::string& t) {
  if (t == "ext4" || t == "ext3") {
    return "its jbd2 journal (each fsync commits a journal transaction: the journal blocks, "
           "a flush, the commit block with FUA)";
  }
  if (t == "xfs") return "its log (each fsync forces the log to disk with a flush)";
  if (t == "btrfs") return "its log tree, with copy-on-write of the data";
  if (t == "f2fs") return "its node chain and checkpoint (fsync_mode decides how much)";
  if (t == "zfs") return "its intent log (ZIL), on a separate log device when it has one";
  return "its own journal or log";
}

const std::vector<Knowledge>& KnowledgeTable() {
  static const std::vector<Knowledge> table = {
      {"tmpfs",
       "a memory filesystem",
       1.0,
       {{S::kOverwrite, E::kFaster, 2}, {S::kAppend, E::kFaster, 1}, {S::kDirSync, E::kFaster, 1}},
       true,
       m::Tmpfs,
       "{side}'s data lives in memory: its syncs do nothing and nothing survives a power loss; "
       "measure a path on the storage the database will really use",
       {"mount.fstype", "mount.statfs", "mount.device"}},
      {"overlay",
       "an overlayfs layer (copy-up, upper layer)",
       1.0,
       {{S::kPerOp, E::kSlower, 3}, {S::kMetadata, E::kSlower, 1}},
       false,
       m::Overlay,
       "{side} is in a container's writable overlay layer: files opened for writing are copied "
       "up from the lower layer, lookups search every layer, and syncs land on the upper "
       "layer's filesystem; put the database on a volume (a bind mount or named volume)",
       {"mount.fstype", "mount.overlay", "mount.statfs", "mount.device"}},
      {"fuse",
       "a FUSE server in user space",
       1.0,
       {{S::kPerOp, E::kSlower, 3}, {S::kMetadata, E::kSlower, 1}},
       false,
       m::Fuse,
       "every file operation on {side} is a round trip to a FUSE server in user space; keep the "
       "database on a filesystem the kernel serves directly (a volume, the directory the FUSE "
       "server exports)",
       {"mount.fstype", "mount.fs_subtype", "mount.statfs", "mount.device"}},
      {"virtiofs",
       "a virtiofs host share",
       1.0,
       {{S::kPerOp, E::kSlower, 2}, {S::kOverwrite, E::kSlower, 1}},
       false,
       m::Virtiofs,
       "{side} is a virtiofs share of the host (Docker Desktop, a VM's shared folder): each "
       "operation crosses into the host; keep the database on a volume inside the VM",
       {"mount.fstype", "mount.statfs", "mount.device"}},
      {"9p",
       "a 9p host share",
       1.0,
       {{S::kPerOp, E::kSlower, 2}, {S::kOverwrite, E::kSlower, 1}, {S::kMetadata, E::kSlower, 1}},
       false,
       m::NineP,
       "{side} is a 9p share (WSL2's /mnt, QEMU shares): every operation is a message to the "
       "host; keep the database on the VM's own disk",
       {"mount.fstype", "mount.statfs", "mount.device"}},
      {"network_fs",
       "a network filesystem",
       1.0,
       {{S::kPerOp, E::kSlower, 2}, {S::kOverwrite, E::kSlower, 2}, {S::kDirSync, E::kSlower, 1}},
       false,
       m::NetworkFs,
       "{side} is a network filesystem: each sync and most operations are round trips to the "
       "server (and SQLite's locking over NFS is unsafe); keep the database on local storage",
       {"mount.fstype", "mount.statfs", "mount.device", "mount.source"}},
      {"btrfs_cow",
       "btrfs's log tree and copy-on-write",
       0.95,
       {{S::kOverwrite, E::kSlower, 2}, {S::kAppend, E::kSlower, 2}, {S::kPerOp, E::kSame, 1}},
       false,
       m::BtrfsCow,
       "btrfs on {side} copies every overwritten block and syncs through its log tree: make "
       "the database directory nodatacow (chattr +C on the empty directory, which also turns "
       "off checksums for its files) or keep databases on ext4 or xfs",
       {"mount.fstype", "mount.statfs", "mount.options", "mount.super_options"}},
      {"filesystem",
       "the filesystems' sync paths",
       0.9,
       {{S::kOverwrite, E::kMoves, 2},
        {S::kAppend, E::kMoves, 1},
        {S::kDirSync, E::kMoves, 1},
        {S::kPerOp, E::kSame, 1}},
       false,
       m::Filesystem,
       "",
       {"mount.fstype", "mount.statfs", "mount.options", "mount.super_options",
        "mount.mount_options"}},
      {"ext4_data_mode",
       "ext4's data mode",
       0.95,
       {{S::kOverwrite, E::kMoves, 2}, {S::kAppend, E::kMoves, 2}, {S::kPerOp, E::kSame, 1}},
       false,
       m::Ext4DataMode,
       "{side}'s ext4 data mode changes what each fsync writes (data=journal writes the data "
       "twice, data=writeback does not order data before metadata); the default data=ordered "
       "is what SQLite's documentation assumes",
       {"mount.options", "mount.super_options"}},
      {"barrier",
       "write barriers off",
       1.0,
       {{S::kOverwrite, E::kFaster, 2},
        {S::kAppend, E::kFaster, 1},
        {S::kDirSync, E::kFaster, 1},
        {S::kPerOp, E::kSame, 1}},
       true,
       m::Barrier,
       "{side} skips the device's cache flush on every sync, so it is faster and loses recent "
       "commits (or corrupts) on power loss; remount it with barrier=1 (the default) before "
       "trusting its figures, and compare {other} with that",
       {"mount.options", "mount.super_options", "mount.mount_options"}},
      {"commit_interval",
       "ext4's commit= interval",
       0.5,
       {{S::kOverwrite, E::kSame, 1}, {S::kAppend, E::kSame, 1}},
       false,
       m::CommitInterval,
       "commit= only sets how often the journal commits in the background; an fsync commits at "
       "once whatever it says, so it does not explain a gap in sync latency",
       {"mount.options", "mount.super_options"}},
      {"sync_mount",
       "the sync mount option",
       1.0,
       {{S::kPerOp, E::kSlower, 3}},
       false,
       m::SyncMount,
       "{side} makes every write synchronous (mount option sync): each plain write waits for the "
       "disk; remove the option and let the database sync when it commits",
       {"mount.options", "mount.mount_options", "mount.super_options"}},
      {"dirsync",
       "the dirsync mount option",
       0.9,
       {{S::kMetadata, E::kSlower, 2}},
       false,
       m::Dirsync,
       "{side} makes every directory change synchronous (dirsync): creating and deleting a "
       "rollback journal per transaction pays for it; drop dirsync or use WAL, which keeps its "
       "files",
       {"mount.options", "mount.mount_options", "mount.super_options"}},
      {"discard",
       "online discard",
       0.6,
       {{S::kMetadata, E::kSlower, 1}, {S::kDirSync, E::kSlower, 1}, {S::kOverwrite, E::kSame, 1}},
       false,
       m::Discard,
       "{side} trims freed blocks at once (discard): each deleted journal costs a trim; use "
       "periodic fstrim instead, or WAL, which does not delete its files",
       {"mount.options", "mount.super_options"}},
      {"bind",
       "a bind mount",
       0.5,
       {{S::kOverwrite, E::kSame, 1},
        {S::kAppend, E::kSame, 1},
        {S::kPerOp, E::kSame, 1},
        {S::kDirSync, E::kSame, 1}},
       false,
       m::Bind,
       "a bind mount passes every call straight to its filesystem and costs nothing by itself; "
       "read the causes above it",
       {"mount.bind", "mount.root"}},
      {"loop",
       "a loop device over a file",
       0.85,
       {{S::kOverwrite, E::kSlower, 2}, {S::kAppend, E::kSlower, 1}, {S::kPerOp, E::kSame, 1}},
       false,
       m::Loop,
       "{side}'s syncs go through a loop device: each flush becomes an fsync of the image file "
       "on the filesystem below, two journals deep; put the database on a real device",
       {"mount.device.kind", "mount.device"}},
      {"loop_backing",
       "the loop devices' backing filesystems",
       0.8,
       {{S::kOverwrite, E::kMoves, 2}, {S::kAppend, E::kMoves, 1}},
       false,
       m::LoopBacking,
       "each side's flushes end as fsyncs of an image file, on different filesystems: the "
       "backing filesystem's sync path is the cost",
       {"mount.device.backing_fstype"}},
      {"write_cache",
       "the device's write cache mode",
       0.8,
       {{S::kOverwrite, E::kFaster, 2}, {S::kAppend, E::kFaster, 1}, {S::kPerOp, E::kSame, 1}},
       false,
       m::WriteCache,
       "a device that reports write through needs no cache flush per sync, so {side} syncs "
       "faster; that is durable only if the cache really is non-volatile (power-loss protection)",
       {"mount.device.write_cache"}},
      {"fua",
       "FUA writes",
       0.6,
       {{S::kOverwrite, E::kFaster, 1}, {S::kPerOp, E::kSame, 1}},
       false,
       m::Fua,
       "with Force Unit Access the journal's commit block is written through the cache instead "
       "of flushing it whole, which makes {side}'s syncs cheaper",
       {"mount.device.fua"}},
      {"rotational",
       "rotating media",
       0.8,
       {{S::kOverwrite, E::kSlower, 2}, {S::kAppend, E::kSlower, 1}, {S::kDirSync, E::kSlower, 1}},
       false,
       m::Rotational,
       "{side}'s device reports itself rotational: a flush costs a seek and a rotation "
       "(milliseconds); put the database on flash, or check whether a virtual disk only "
       "claims to rotate",
       {"mount.device.rotational"}},
      {"queue_depth",
       "the device's queue depth",
       0.4,
       {{S::kOverwrite, E::kSame, 1}, {S::kPerOp, E::kSame, 1}},
       false,
       m::QueueDepth,
       "the queue depth limits concurrent requests, not one sync's latency; it matters for "
       "parallel writers, not for a single database's commits",
       {"mount.device.queue_depth"}},
      {"scheduler",
       "the I/O scheduler",
       0.5,
       {{S::kOverwrite, E::kMoves, 1}, {S::kPerOp, E::kSame, 1}},
       false,
       m::Scheduler,
       "the I/O scheduler can delay a flush behind other requests; for a database device, none "
       "or mq-deadline keeps syncs first",
       {"mount.device.scheduler"}},
      {"drift",
       "a virtual disk in a fast or throttled state",
       0.7,
       {{S::kReference, E::kSlower, 3},
        {S::kOverwrite, E::kSlower, 1},
        {S::kAppend, E::kSlower, 1},
        {S::kDirSync, E::kSlower, 1},
        {S::kPerOp, E::kSame, 1}},
       false,
       m::Drift,
       "the device changed state (burst credits spent, a throttled virtual disk, a neighbour's "
       "I/O): figures from its two states are not comparable; compare the paths interleaved in "
       "one run (durprobe compare), with a longer --budget, and check the volume's burst "
       "balance",
       {}},
      {"ebs_volume_limit",
       "the EBS volume's provisioned IOPS",
       1.0,
       {{S::kOverwrite, E::kSlower, 2},
        {S::kAppend, E::kSlower, 1},
        {S::kReference, E::kSlower, 1}},
       false,
       m::EbsVolume,
       "the volume was throttled at its provisioned limit while {side} ran: provision more IOPS "
       "or throughput (gp3, io2), or issue fewer syncs per commit (WAL, larger transactions)",
       {}},
      {"ebs_instance_limit",
       "the instance's EBS limit",
       1.0,
       {{S::kOverwrite, E::kSlower, 2},
        {S::kAppend, E::kSlower, 1},
        {S::kReference, E::kSlower, 1}},
       false,
       m::EbsInstance,
       "the instance was at its EBS bandwidth or IOPS limit while {side} ran: a larger or "
       "EBS-optimized instance type, or less I/O on its other volumes",
       {}},
      {"container_role",
       "the path's role in the container",
       0.3,
       {{S::kPerOp, E::kMoves, 1}},
       false,
       m::ContainerRole,
       "",
       {"mount.container.path_role"}},
      {"sqlite_build",
       "SQLite's build options",
       0.9,
       {{S::kSyncCount, E::kMoves, 3}, {S::kOverwrite, E::kSame, 1}},
       false,
       m::SqliteBuild,
       "SQLite's version or compile options differ (SQLITE_DEFAULT_SYNCHRONOUS, "
       "SQLITE_DEFAULT_WAL_SYNCHRONOUS, directory syncs, page size): set PRAGMA synchronous, "
       "journal_mode and page_size explicitly in the application so both hosts run the same",
       {"context.sqlite"}},
      {"kernel",
       "the kernel",
       0.3,
       {},
       false,
       m::Kernel,
       "kernels change filesystems' sync paths between releases (jbd2 fast commits, xfs log "
       "changes, block-layer flush merging); compare on one kernel to rule it out",
       {"context.kernel"}},
      {"ld_preload",
       "a preloaded library",
       1.0,
       {{S::kOverwrite, E::kFaster, 2}},
       true,
       m::Preload,
       "{side} ran with a preloaded library that can turn syncs into no-ops (eatmydata): its "
       "figures say what the application risks, not what durable storage costs",
       {"context.ld_preload"}},
  };
  return table;
}

}  // namespace durprobe::explain
