// What a file a live process synced is, from its path (and the other paths seen in the same
// window: a database is known by its journal or WAL beside it), and the kinds' names and phrases.
// docs/watch.md says what each kind means.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "model/watch.h"

namespace durprobe::analysis {

// path's kind; directory when the path is a directory; seen holds every path synced or written
// in the window.
model::WatchFileKind ClassifyWatchFile(const std::string& path, bool directory,
                                       const std::set<std::string>& seen);

// "sqlite_database", "sqlite_journal", ... (the JSON's `kind`).
std::string_view WatchFileKindName(model::WatchFileKind kind);
// "SQLite database", "SQLite rollback journal", ... (the console's).
std::string_view WatchFileKindPhrase(model::WatchFileKind kind);

}  // namespace durprobe::analysis
