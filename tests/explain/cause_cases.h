// The fixture pairs of cause ranking: one per knowledge entry (explain/cause_table.h), b
// measured with scale (a's signature times it) and changed the way the entry describes.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "explain/causes.h"
#include "explain/diff_analysis.h"
#include "platform/ebs_stats.h"
#include "tests/cause_fixtures.h"
#include "tests/verdicts.h"

namespace durprobe::explain {
namespace cause_cases {

using testing_support::CausePath;
using testing_support::Scale;

// One fixture pair per knowledge entry: b measured with scale (a's signature times it) and
// changed by change (its mount, its findings, its context); the entry must lead.
struct CauseCase {
  const char* key;
  Scale scale;
  std::function<void(model::Target& b, model::Context& cb)> change;
};

inline const std::vector<CauseCase>& Cases() {
  static const std::vector<CauseCase> cases = {
      {"tmpfs",
       {.overwrite = 0.01, .append = 0.01, .dir = 0.01},
       [](model::Target& b, model::Context&) {
         b.mount->fstype = "tmpfs";
         b.mount->device.reset();
         b.findings.push_back({model::Severity::kWarn, "sync_noop_memory_fs", "memory"});
       }},
      {"overlay",
       {.op = 1.6, .meta = 2.0},
       [](model::Target& b, model::Context&) {
         b.mount->fstype = "overlay";
         b.mount->overlay = platform::OverlayInfo{};
       }},
      {"fuse",
       {.dir = 0.05, .op = 9, .meta = 5},
       [](model::Target& b, model::Context&) {
         b.mount->fstype = "fuse.bindfs";
         b.mount->fs_subtype = "bindfs";
         b.mount->device.reset();
       }},
      {"virtiofs",
       {.overwrite = 3, .op = 5},
       [](model::Target& b, model::Context&) {
         b.mount->fstype = "virtiofs";
         b.mount->device.reset();
       }},
      {"9p",
       {.overwrite = 4, .op = 20, .meta = 10},
       [](model::Target& b, model::Context&) {
         b.mount->fstype = "9p";
         b.mount->device.reset();
       }},
      {"network_fs",
       {.overwrite = 5, .append = 5, .dir = 5, .op = 30},
       [](model::Target& b, model::Context&) {
         b.mount->fstype = "nfs4";
         b.mount->device.reset();
       }},
      {"btrfs_cow",
       {.overwrite = 15, .append = 20},
       [](model::Target& b, model::Context&) { b.mount->fstype = "btrfs"; }},
      {"filesystem",
       {.append = 0.05, .dir = 0.05},
       [](model::Target& b, model::Context&) { b.mount->fstype = "xfs"; }},
      {"ext4_data_mode",
       {.overwrite = 2.5, .append = 2.2},
       [](model::Target& b, model::Context&) { b.mount->options.push_back("data=journal"); }},
      {"barrier",
       {.overwrite = 0.01, .append = 0.01, .dir = 0.02},
       [](model::Target& b, model::Context&) {
         b.mount->options.push_back("nobarrier");
         testing_support::MarkNotDurable(b, "barrier_disabled");
       }},
      {"commit_interval",
       {},
       [](model::Target& b, model::Context&) { b.mount->options.push_back("commit=60"); }},
      {"sync_mount",
       {.op = 50},
       [](model::Target& b, model::Context&) { b.mount->options.push_back("sync"); }},
      {"dirsync",
       {.meta = 8},
       [](model::Target& b, model::Context&) { b.mount->options.push_back("dirsync"); }},
      {"discard",
       {.dir = 2, .meta = 2},
       [](model::Target& b, model::Context&) { b.mount->options.push_back("discard"); }},
      {"bind", {}, [](model::Target& b, model::Context&) { b.mount->bind = true; }},
      {"loop",
       {.overwrite = 3, .append = 2},
       [](model::Target& b, model::Context&) {
         b.mount->device->kind = "loop";
         b.mount->device->backing_fstype = "ext4";
         b.mount->device->backing_mount_point = "/";
       }},
      {"loop_backing",
       {.overwrite = 4, .append = 3},
       [](model::Target& b, model::Context&) { b.mount->device->backing_fstype = "xfs"; }},
      {"write_cache",
       {.overwrite = 0.2, .append = 0.3},
       [](model::Target& b, model::Context&) { b.mount->device->write_cache = "write through"; }},
      {"fua",
       {.overwrite = 0.6},
       [](model::Target& b, model::Context&) { b.mount->device->fua = true; }},
      {"rotational",
       {.overwrite = 20, .append = 20, .dir = 20},
       [](model::Target& b, model::Context&) { b.mount->device->rotational = true; }},
      {"queue_depth",
       {},
       [](model::Target& b, model::Context&) { b.mount->device->queue_depth = 32; }},
      {"scheduler",
       {.overwrite = 1.6},
       [](model::Target& b, model::Context&) { b.mount->device->scheduler = "bfq"; }},
      {"cpu_quota",
       {.op = 5, .meta = 3},
       [](model::Target& b, model::Context& c) {
         c.cpu_quota.version = "v1";
         c.cpu_quota.quota_us = 20'000;
         c.cpu_quota.period_us = 100'000;
         b.findings.push_back({model::Severity::kWarn, "cpu_throttled", "throttled"});
       }},
      {"io_limit",
       {.overwrite = 40, .append = 40, .dir = 10},
       [](model::Target&, model::Context& c) {
         c.io_limits.version = "v1";
         platform::IoLimit l;
         l.device = "254:0";
         l.name = "vda";
         l.write_iops = 100;
         l.cgroup = "/durprobe-test";
         c.io_limits.devices.push_back(l);
       }},
      {"neighbour",
       {.overwrite = 3, .append = 3, .dir = 3},
       [](model::Target& b, model::Context&) {
         probes::FlushTally& f = b.probes[0].device_flushes;
         f.counted = true;
         f.idle_ns = 1'000'000'000;
         f.devices.push_back({.name = "vda", .idle_flushes = 4'900});
       }},
      {"drift",
       {.overwrite = 4, .append = 4, .dir = 4},
       [](model::Target& b, model::Context&) {
         b.findings.push_back({model::Severity::kWarn, "latency_drift", "moved"});
       }},
      {"ebs_volume_limit",
       {.overwrite = 6, .append = 5},
       [](model::Target& b, model::Context&) {
         platform::EbsStats e;
         e.device = "nvme1n1";
         e.volume_exceeded_iops_us = 4'200'000;
         b.ebs = e;
       }},
      {"ebs_instance_limit",
       {.overwrite = 6, .append = 5},
       [](model::Target& b, model::Context&) {
         platform::EbsStats e;
         e.device = "nvme1n1";
         e.instance_exceeded_tp_us = 900'000;
         b.ebs = e;
       }},
      {"container_role",
       {.op = 1.5},
       [](model::Target& b, model::Context&) {
         b.mount->container.path_role = platform::PathRole::kOverlayRoot;
       }},
      {"sqlite_build", {}, [](model::Target&, model::Context& c) { c.sqlite_version = "3.46.0"; }},
      {"kernel", {}, [](model::Target&, model::Context& c) { c.kernel = "6.8.0"; }},
      {"ld_preload",
       {.overwrite = 0.01},
       [](model::Target& b, model::Context& c) {
         c.ld_preload = "libeatmydata.so";
         b.findings.push_back({model::Severity::kFail, "ld_preload_eatmydata", "eatmydata"});
       }},
  };
  return cases;
}

inline std::vector<Cause> RankCase(const CauseCase& c) {
  model::Target a = CausePath("/a"), b = CausePath("/b", c.scale);
  model::Context ca, cb;
  ca.kernel = cb.kernel = "6.1.0";
  ca.sqlite_version = cb.sqlite_version = "3.40.1";
  if (std::string(c.key) == "loop_backing") {  // both sides on loop devices
    for (model::Target* t : {&a, &b}) {
      t->mount->device->kind = "loop";
      t->mount->device->backing_fstype = "ext4";
    }
  }
  c.change(b, cb);
  std::vector<Difference> differences;
  if (ca.kernel != cb.kernel) differences.push_back({"context.kernel", ca.kernel, cb.kernel});
  if (ca.sqlite_version != cb.sqlite_version) {
    differences.push_back({"context.sqlite_version", ca.sqlite_version, cb.sqlite_version});
  }
  std::vector<ConfigDiff> configs;
  if (std::string(c.key) == "sqlite_build") {
    ConfigDiff d;
    d.label = "DELETE/FULL x1";
    d.syncs_a = 3;
    d.syncs_b = 2;
    configs.push_back(d);
  }
  return RankCauses({&a, &b, &ca, &cb, "a", "b", &configs, differences});
}

}  // namespace cause_cases
}  // namespace durprobe::explain
