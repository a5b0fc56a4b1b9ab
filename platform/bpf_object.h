// A BPF object file as clang -target bpf writes it (a relocatable ELF64), read into what the
// loader needs: its maps (legacy definitions in the "maps" section), its programs (one per
// "tracepoint/CATEGORY/NAME" section) with the instructions that name a map, and its license.
// Pure parsing, no OS call: a program that calls another function or reads global data is
// refused here by name, as the loader (linux_bpf.h) resolves map references only.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "platform/status.h"

namespace durprobe::platform {

struct BpfMapSpec {
  std::string name;  // the symbol: "dp_events"
  std::uint32_t type = 0;
  std::uint32_t key_size = 0;
  std::uint32_t value_size = 0;
  std::uint32_t max_entries = 0;
  std::uint32_t flags = 0;
};

// An instruction whose 64-bit immediate is a map's address: the loader puts the map's
// descriptor there.
struct BpfMapReference {
  std::size_t instruction = 0;  // index into BpfProgramSpec::instructions
  std::size_t map = 0;          // index into BpfObject::maps
};

struct BpfProgramSpec {
  std::string name;      // the function: "enter_fsync"
  std::string category;  // "syscalls"
  std::string event;     // "sys_enter_fsync"
  std::vector<std::uint64_t> instructions;
  std::vector<BpfMapReference> map_references;
};

struct BpfObject {
  std::vector<BpfMapSpec> maps;
  std::vector<BpfProgramSpec> programs;
  std::string license;
};

// The object in bytes, or InvalidArgument naming what is not as expected (not an ELF64
// little-endian BPF relocatable, a relocation other than a map's, a truncated section).
Result<BpfObject> ParseBpfObject(std::string_view bytes);

}  // namespace durprobe::platform
