// The effective durability of a path: every layer between the path and stable media, each with
// its rule here and nowhere else, composed into one verdict (model/durability.h).
//
// From the top: an LD_PRELOAD interposer; an overlay (volatile in either spelling, the upper
// layer and its filesystem); the filesystem (memory, FUSE, virtiofs, 9p, network, ZFS sync,
// barriers); a loop device, followed to the filesystem of its backing file and on down; the
// block device's write cache and FUA; then the measured evidence (syncs that cost no more than
// a write, directory syncs that cost nothing, flushes faster than the device can do them).
// The first layer that voids a sync decides `not_durable`; else the first that cannot be seen
// through decides `unproven`; else the path is `durable` as far as can be seen.
#pragma once

#include "model/durability.h"
#include "model/report.h"

namespace durprobe::analysis {

// The verdict from what the target holds now: its mount (and backing chain), the context's
// LD_PRELOAD, its probes and its measured findings (sync_noop_suspected,
// sync_faster_than_device). Without a mount the filesystem layer is unknown.
model::Durability DurabilityOf(const model::Target& target, const model::Context& context);

// Sets target.durability. The executor calls it after inspecting a path and again once the
// probes' findings are in, so every later consumer (the SQLite risk column, check, compare, diff,
// summarize, every format) reads one verdict.
void AssessDurability(model::Target& target, const model::Context& context);

}  // namespace durprobe::analysis
