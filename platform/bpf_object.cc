#include "platform/bpf_object.h"

#include <elf.h>

#include <cstring>
#include <map>

namespace durprobe::platform {
namespace {

// R_BPF_64_64: a 64-bit immediate load (ld_imm64) of a symbol's address.
constexpr std::uint32_t kMapRelocation = 1;
constexpr std::size_t kMapDefSize = 5 * sizeof(std::uint32_t);
constexpr std::string_view kTracepointPrefix = "tracepoint/";

template <typename T>
bool ReadAt(std::string_view bytes, std::uint64_t offset, T* out) {
  if (offset > bytes.size() || bytes.size() - offset < sizeof(T)) return false;
  std::memcpy(out, bytes.data() + offset, sizeof(T));
  return true;
}

struct Elf {
  std::string_view bytes;
  std::vector<Elf64_Shdr> sections;
  std::string_view section_names;

  std::string_view Contents(std::size_t index) const {
    const Elf64_Shdr& s = sections[index];
    if (s.sh_type == SHT_NOBITS || s.sh_offset > bytes.size() ||
        bytes.size() - s.sh_offset < s.sh_size) {
      return {};
    }
    return bytes.substr(s.sh_offset, s.sh_size);
  }
  static std::string_view Name(std::string_view table, std::uint32_t offset) {
    if (offset >= table.size()) return {};
    std::string_view rest = table.substr(offset);
    return rest.substr(0, rest.find('\0'));
  }
  std::string_view SectionName(std::size_t index) const {
    return Name(section_names, sections[index].sh_name);
  }
};

Status Invalid(std::string what) {
  return Status::InvalidArgument("the BPF object: " + std::move(what));
}

Result<Elf> ReadElf(std::string_view bytes) {
  Elf64_Ehdr header;
  if (!ReadAt(bytes, 0, &header) || std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB ||
      header.e_machine != EM_BPF || header.e_type != ET_REL) {
    return Invalid("not a little-endian ELF64 BPF relocatable object");
  }
  Elf elf;
  elf.bytes = bytes;
  for (std::size_t i = 0; i < header.e_shnum; ++i) {
    Elf64_Shdr section;
    if (!ReadAt(bytes, header.e_shoff + i * sizeof(Elf64_Shdr), &section)) {
      return Invalid("truncated section table");
    }
    elf.sections.push_back(section);
  }
  if (header.e_shstrndx >= elf.sections.size()) return Invalid("no section names");
  elf.section_names = elf.Contents(header.e_shstrndx);
  return elf;
}

}  // namespace

Result<BpfObject> ParseBpfObject(std::string_view bytes) {
  Result<Elf> read = ReadElf(bytes);
  if (!read.ok()) return read.status();
  const Elf& elf = *read;
  BpfObject object;
  std::size_t maps_section = 0;
  std::size_t symbols_section = 0;
  std::map<std::size_t, std::size_t> program_of_section;
  for (std::size_t i = 1; i < elf.sections.size(); ++i) {
    std::string_view name = elf.SectionName(i);
    const Elf64_Shdr& s = elf.sections[i];
    if (name == "maps") maps_section = i;
    if (s.sh_type == SHT_SYMTAB) symbols_section = i;
    if (name == "license") {
      std::string_view text = elf.Contents(i);
      object.license = std::string(text.substr(0, text.find('\0')));
    }
    if (s.sh_type == SHT_PROGBITS && (s.sh_flags & SHF_EXECINSTR) != 0 && s.sh_size > 0) {
      if (!name.starts_with(kTracepointPrefix)) {
        return Invalid("code in section " + std::string(name) + ", not a tracepoint's");
      }
      std::string_view path = name.substr(kTracepointPrefix.size());
      std::size_t slash = path.find('/');
      if (slash == std::string_view::npos) return Invalid("section " + std::string(name));
      std::string_view code = elf.Contents(i);
      if (code.size() % 8 != 0 || code.empty()) return Invalid("truncated " + std::string(name));
      BpfProgramSpec program;
      program.category = std::string(path.substr(0, slash));
      program.event = std::string(path.substr(slash + 1));
      program.instructions.resize(code.size() / 8);
      std::memcpy(program.instructions.data(), code.data(), code.size());
      program_of_section[i] = object.programs.size();
      object.programs.push_back(std::move(program));
    }
  }
  if (symbols_section == 0) return Invalid("no symbol table");
  std::string_view symbols = elf.Contents(symbols_section);
  std::size_t string_section = elf.sections[symbols_section].sh_link;
  if (string_section >= elf.sections.size()) return Invalid("no symbol names");
  std::string_view strings = elf.Contents(string_section);
  std::size_t symbol_count = symbols.size() / sizeof(Elf64_Sym);
  std::vector<Elf64_Sym> table(symbol_count);
  std::memcpy(table.data(), symbols.data(), symbol_count * sizeof(Elf64_Sym));

  // Maps, indexed by their offset in the maps section; programs named by their function.
  std::map<std::uint64_t, std::size_t> map_at_offset;
  std::string_view map_defs = maps_section != 0 ? elf.Contents(maps_section) : std::string_view();
  for (const Elf64_Sym& symbol : table) {
    std::string_view name = Elf::Name(strings, symbol.st_name);
    if (maps_section != 0 && symbol.st_shndx == maps_section && !name.empty()) {
      std::uint32_t fields[5];
      if (!ReadAt(map_defs, symbol.st_value, &fields)) return Invalid("map " + std::string(name));
      map_at_offset[symbol.st_value] = object.maps.size();
      object.maps.push_back(
          {std::string(name), fields[0], fields[1], fields[2], fields[3], fields[4]});
    }
    auto program = program_of_section.find(symbol.st_shndx);
    if (program != program_of_section.end() && ELF64_ST_TYPE(symbol.st_info) == STT_FUNC) {
      object.programs[program->second].name = std::string(name);
    }
  }
  static_assert(kMapDefSize == 20);

  for (std::size_t i = 1; i < elf.sections.size(); ++i) {
    const Elf64_Shdr& s = elf.sections[i];
    if (s.sh_type != SHT_REL) continue;
    auto program = program_of_section.find(s.sh_info);
    if (program == program_of_section.end()) continue;
    BpfProgramSpec& spec = object.programs[program->second];
    std::string_view relocations = elf.Contents(i);
    for (std::size_t off = 0; off + sizeof(Elf64_Rel) <= relocations.size();
         off += sizeof(Elf64_Rel)) {
      Elf64_Rel rel;
      std::memcpy(&rel, relocations.data() + off, sizeof(rel));
      std::size_t symbol = ELF64_R_SYM(rel.r_info);
      if (ELF64_R_TYPE(rel.r_info) != kMapRelocation || symbol >= table.size() ||
          table[symbol].st_shndx != maps_section || maps_section == 0) {
        return Invalid(spec.name + " refers to something other than a map (a call or data)");
      }
      auto map = map_at_offset.find(table[symbol].st_value);
      if (map == map_at_offset.end() || rel.r_offset % 8 != 0 ||
          rel.r_offset / 8 + 1 >= spec.instructions.size()) {
        return Invalid(spec.name + ": a map reference out of place");
      }
      spec.map_references.push_back({rel.r_offset / 8, map->second});
    }
  }
  return object;
}

}  // namespace durprobe::platform
