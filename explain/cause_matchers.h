// When a pair of paths shows each cause of the knowledge table (explain/cause_table.h):
// one predicate per row, reading the two mounts, contexts and the measured state.
#pragma once

#include "explain/cause_table.h"

namespace durprobe::explain::matchers {

bool Tmpfs(const CausePair& p, CauseMatch& m);
bool Overlay(const CausePair& p, CauseMatch& m);
bool Fuse(const CausePair& p, CauseMatch& m);
bool Virtiofs(const CausePair& p, CauseMatch& m);
bool NineP(const CausePair& p, CauseMatch& m);
bool NetworkFs(const CausePair& p, CauseMatch& m);
bool BtrfsCow(const CausePair& p, CauseMatch& m);
bool Filesystem(const CausePair& p, CauseMatch& m);
bool Ext4DataMode(const CausePair& p, CauseMatch& m);
bool Barrier(const CausePair& p, CauseMatch& m);
bool CommitInterval(const CausePair& p, CauseMatch& m);
bool SyncMount(const CausePair& p, CauseMatch& m);
bool Dirsync(const CausePair& p, CauseMatch& m);
bool Discard(const CausePair& p, CauseMatch& m);
bool Bind(const CausePair& p, CauseMatch& m);
bool Loop(const CausePair& p, CauseMatch& m);
bool LoopBacking(const CausePair& p, CauseMatch& m);
bool WriteCache(const CausePair& p, CauseMatch& m);
bool Fua(const CausePair& p, CauseMatch& m);
bool Rotational(const CausePair& p, CauseMatch& m);
bool QueueDepth(const CausePair& p, CauseMatch& m);
bool Scheduler(const CausePair& p, CauseMatch& m);
bool Drift(const CausePair& p, CauseMatch& m);
bool EbsVolume(const CausePair& p, CauseMatch& m);
bool EbsInstance(const CausePair& p, CauseMatch& m);
bool ContainerRole(const CausePair& p, CauseMatch& m);
bool SqliteBuild(const CausePair& p, CauseMatch& m);
bool Kernel(const CausePair& p, CauseMatch& m);
bool Preload(const CausePair& p, CauseMatch& m);

}  // namespace durprobe::explain::matchers
