// The crashsim results as a terminal table, one row per configuration, with the count of crash
// states tried. Formats only.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sqlite_bench/crashsim_result.h"

namespace durprobe::render::console {

void PrintCrashsimTable(const std::vector<sqlite_bench::CrashsimResult>& results,
                        std::ostream& out);

// "0/150" style loss cells for the commit-matrix table: the crashsim row of the same journal
// mode, synchronous level and batch, or nullptr.
const sqlite_bench::CrashsimResult* FindCrashsim(
    const std::vector<sqlite_bench::CrashsimResult>& results, sqlite_bench::JournalMode journal,
    sqlite_bench::Synchronous sync, std::uint32_t rows_per_commit);
std::string LossCell(const sqlite_bench::CrashsimResult& r);     // "3/150 max 1"
std::string CorruptCell(const sqlite_bench::CrashsimResult& r);  // "0/150"

}  // namespace durprobe::render::console
