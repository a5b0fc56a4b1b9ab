#include "codec/fsync_errors_json.h"

#include "codec/json_reader_sections.h"
#include "model/names.h"

namespace durprobe::codec {

using nlohmann::json;

json ToJson(const std::vector<probes::FsyncErrorsResult>& results) {
  json all = json::array();
  for (const probes::FsyncErrorsResult& r : results) {
    json experiments = json::array();
    for (const probes::FsyncErrorOutcome& o : r.outcomes) {
      json e{{"fault", probes::NameOf(o.fault)},
             {"sync", o.sync},
             {"status", probes::NameOf(o.status)},
             {"write", o.write},
             {"first_sync", o.first_sync},
             {"second_sync", o.second_sync},
             {"other_descriptor_sync", o.other_sync},
             {"later_sync", o.later_sync},
             {"reporting", probes::NameOf(o.reporting)},
             {"page_cached", probes::NameOf(o.cached)},
             {"page_evicted", probes::NameOf(o.evicted)},
             {"page_after_remount", probes::NameOf(o.remounted)},
             {"size", o.size},
             {"size_after_remount", o.size_after_remount},
             {"fs_state", probes::NameOf(o.state)},
             {"fs_state_error", o.state_error},
             {"remount_ok", o.remount_ok},
             {"remount_error", o.remount_error},
             {"fs_state_after_remount", probes::NameOf(o.state_after_remount)},
             {"kernel", o.kernel},
             {"retry", o.retry}};
      if (!o.reason.empty()) e["reason"] = o.reason;
      experiments.push_back(std::move(e));
    }
    json sqlite = json::array();
    for (const probes::SqliteSyncFailure& f : r.sqlite) {
      json s{{"journal_mode", f.journal_mode},
             {"status", probes::NameOf(f.status)},
             {"rows_before", f.rows_before},
             {"commit", f.commit},
             {"reopened", f.reopened},
             {"rows_reopened", f.rows_reopened},
             {"after_remount", f.remounted},
             {"rows_after_remount", f.rows_remounted},
             {"detail", f.detail}};
      if (!f.reason.empty()) s["reason"] = f.reason;
      sqlite.push_back(std::move(s));
    }
    all.push_back({{"filesystem", r.fs},
                   {"mount_options", r.fs_options},
                   {"filesystem_of_path", r.paths_own_fs},
                   {"kernel", r.kernel},
                   {"experiments", experiments},
                   {"sqlite", sqlite},
                   {"ns", r.ns}});
  }
  return all;
}

std::vector<probes::FsyncErrorsResult> ReadFsyncErrors(const JsonFields& target) {
  std::vector<probes::FsyncErrorsResult> all;
  target.Each("fsync_errors", Need::kOptional, [&](const JsonFields& f) {
    probes::FsyncErrorsResult r;
    r.fs = f.String("filesystem");
    r.fs_options = f.String("mount_options");
    r.paths_own_fs = f.Bool("filesystem_of_path");
    r.kernel = f.String("kernel");
    r.ns = f.Uint("ns");
    f.Each("experiments", Need::kOptional, [&](const JsonFields& e) {
      probes::FsyncErrorOutcome o;
      o.fault = e.Enum("fault", o.fault, Need::kRequired);
      o.sync = e.String("sync");
      o.status = ReadOutcome(e);
      o.reason = e.String("reason");
      o.write = e.String("write");
      o.first_sync = e.String("first_sync");
      o.second_sync = e.String("second_sync");
      o.other_sync = e.String("other_descriptor_sync");
      o.later_sync = e.String("later_sync");
      o.reporting = e.Enum("reporting", o.reporting);
      o.cached = e.Enum("page_cached", o.cached);
      o.evicted = e.Enum("page_evicted", o.evicted);
      o.remounted = e.Enum("page_after_remount", o.remounted);
      o.size = e.Uint("size");
      o.size_after_remount = e.Uint("size_after_remount");
      o.state = e.Enum("fs_state", o.state);
      o.state_error = e.String("fs_state_error");
      o.remount_ok = e.Bool("remount_ok");
      o.remount_error = e.String("remount_error");
      o.state_after_remount = e.Enum("fs_state_after_remount", o.state_after_remount);
      o.kernel = e.Strings("kernel");
      o.retry = e.String("retry");
      r.outcomes.push_back(std::move(o));
    });
    f.Each("sqlite", Need::kOptional, [&](const JsonFields& s) {
      probes::SqliteSyncFailure x;
      x.journal_mode = s.String("journal_mode");
      x.status = ReadOutcome(s);
      x.reason = s.String("reason");
      x.rows_before = s.Uint("rows_before");
      x.commit = s.String("commit");
      x.reopened = s.String("reopened");
      x.rows_reopened = s.Uint("rows_reopened");
      x.remounted = s.String("after_remount");
      x.rows_remounted = s.Uint("rows_after_remount");
      x.detail = s.String("detail");
      r.sqlite.push_back(std::move(x));
    });
    all.push_back(std::move(r));
  });
  return all;
}

}  // namespace durprobe::codec
