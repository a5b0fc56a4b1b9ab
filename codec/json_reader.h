// The typed reader of durprobe.report/1 (the writer is codec/report_json.h): saved
// reports back into the report model, for diff and every command that reads reports.
//
// Contract:
// - Errors are one line naming what is wrong: malformed JSON with its byte offset, the wrong
//   schema, a missing required key or a value of the wrong type with its JSON path
//   ("targets[0].sqlite[1]: missing required key commits_per_sec").
// - Required are the contract's keys (docs/json.md); every other key may be absent (a report from
//   an older durprobe) and reads as its default. Unknown keys are ignored; null reads as the
//   default (0, empty, unset), so a latency the writer left null reads as 0.
// - What the writer derives is not read back but derived again: a SQLite row's counts are read
//   from its per-commit figures x commits, so write, read, write gives the same bytes.
// - Lossy where the JSON is: the setup, checkpoint and verify phases of a SQLite row are saved as
//   totals only (syncs, directory syncs, sync time), which the reader puts under
//   FileKind::kOther. A row without its counts (no `commits` or `vfs_per_commit`: an older
//   report) keeps the contract's per-commit figures in SqliteEntry::saved instead.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "codec/json_text.h"
#include "model/report.h"
#include "platform/status.h"

namespace durprobe::codec {

// Checks a parsed document is a durprobe report with at least one target; the message names
// what is wrong ("schema is 'x', expected durprobe.report/1").
Status ValidateReport(const nlohmann::json& doc);

// A report's text -> the report model. The error (InvalidArgument) is one line, see above.
Result<model::Report> FromJson(const std::string& text);
Result<model::Report> FromJson(const nlohmann::json& doc);

}  // namespace durprobe::codec
