#include "platform/fw/linker.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include "hw/base/error.hpp"

namespace sanvp::fw {

namespace {

// ELF constants (from the ELF spec; <elf.h> is not guaranteed to know EM_LANAI).
constexpr std::uint16_t kEmLanai = 244;
constexpr std::uint32_t kShtProgbits = 1, kShtSymtab = 2, kShtStrtab = 3, kShtRela = 4, kShtNobits = 8,
                        kShtRel = 9, kShtInitArray = 14, kShtGroup = 17;
constexpr std::uint32_t kShfWrite = 1, kShfAlloc = 2, kShfExec = 4;
constexpr std::uint16_t kShnUndef = 0, kShnAbs = 0xFFF1, kShnCommon = 0xFFF2;
constexpr unsigned kStbLocal = 0, kStbGlobal = 1, kStbWeak = 2;
constexpr unsigned kSttFunc = 2, kSttSection = 3, kSttFile = 4;

const char* reloc_name(unsigned t) {
  static const char* n[] = {"R_LANAI_NONE", "R_LANAI_21", "R_LANAI_21_F", "R_LANAI_25", "R_LANAI_32", "R_LANAI_HI16", "R_LANAI_LO16"};
  return t < 7 ? n[t] : "R_LANAI_?";
}

const char* machine_name(unsigned m) {
  switch (m) {
    case 3: return "i386";
    case 8: return "MIPS";
    case 20: return "PowerPC";
    case 40: return "ARM";
    case 62: return "x86-64";
    case 183: return "AArch64";
    case 243: return "RISC-V";
    default: return "unknown";
  }
}

struct Section {
  std::string name;
  std::uint32_t type = 0, flags = 0, offset = 0, size = 0, link = 0, info = 0, align = 1, entsize = 0;
  bool discarded = false;  // duplicate COMDAT group member
  bool placed = false;
  std::uint32_t addr = 0;
};

struct Sym {
  std::string name;
  std::uint32_t value = 0, size = 0;
  unsigned bind = 0, type = 0;
  std::uint16_t shndx = 0;
};

struct Object {
  std::string path;
  std::string buf;
  std::vector<Section> secs;
  std::vector<Sym> syms;
  std::vector<std::uint32_t> sym_addr;  // resolved address per symbol (filled during linking)

  std::uint8_t u8(std::size_t o) const { return static_cast<std::uint8_t>(buf[o]); }
  std::uint16_t u16(std::size_t o) const { return static_cast<std::uint16_t>((u8(o) << 8) | u8(o + 1)); }
  std::uint32_t u32(std::size_t o) const {
    return (std::uint32_t{u8(o)} << 24) | (std::uint32_t{u8(o + 1)} << 16) | (std::uint32_t{u8(o + 2)} << 8) | u8(o + 3);
  }
  [[noreturn]] void corrupt(const std::string& what) const {
    throw UserError(fmt::format("{}: truncated or corrupt ELF file: {}", path, what));
  }
  std::string cstr(std::uint32_t strtab, std::uint32_t off) const {
    if (strtab >= secs.size() || secs[strtab].type != kShtStrtab) corrupt("string table index out of range");
    const Section& s = secs[strtab];
    if (off >= s.size) corrupt("string offset out of range");
    const std::size_t start = s.offset + off, end = buf.find('\0', start);
    if (end == std::string::npos || end >= std::size_t{s.offset} + s.size) corrupt("unterminated string");
    return buf.substr(start, end - start);
  }
  std::string where(std::uint32_t sec, std::uint32_t off) const {
    return fmt::format("{}+0x{:x} in {}", sec < secs.size() ? secs[sec].name : "?", off, path);
  }
};

Object read_object(const std::string& path) {
  Object o;
  o.path = path;
  std::ifstream f(path, std::ios::binary);
  if (!f) throw UserError(fmt::format("{}: cannot open input file", path));
  o.buf.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  const std::string& b = o.buf;
  if (b.size() < 16 || b.compare(0, 4, "\x7f" "ELF") != 0) {
    if (b.size() < 4) o.corrupt(fmt::format("file is {} bytes long", b.size()));
    throw UserError(fmt::format("{}: not an ELF file", path));
  }
  if (b[4] != 1) throw UserError(fmt::format("{}: wrong ELF class ({}); Lanai objects are ELFCLASS32", path, b[4] == 2 ? "ELFCLASS64" : "invalid"));
  if (b[5] != 2) throw UserError(fmt::format("{}: wrong endianness ({}); Lanai objects are big-endian (ELFDATA2MSB)", path, b[5] == 1 ? "little-endian" : "invalid"));
  if (b.size() < 52) o.corrupt("ELF header is cut short");
  const std::uint16_t type = o.u16(16), machine = o.u16(18);
  if (machine != kEmLanai)
    throw UserError(fmt::format("{}: wrong ELF machine {} ({}); expected EM_LANAI (244) — compile with clang++ --target=lanai", path, machine, machine_name(machine)));
  if (type != 1) throw UserError(fmt::format("{}: ELF type {} is not a relocatable object (ET_REL); give the linker the .o files", path, type));
  const std::uint32_t shoff = o.u32(32);
  const std::uint16_t shentsize = o.u16(46), shnum = o.u16(48), shstrndx = o.u16(50);
  if (shentsize != 40) o.corrupt(fmt::format("section header size {} (expected 40)", shentsize));
  if (shnum == 0 || std::uint64_t{shoff} + std::uint64_t{shnum} * 40 > b.size()) o.corrupt("section header table extends past the end of the file");
  o.secs.resize(shnum);
  for (unsigned i = 0; i < shnum; ++i) {
    const std::size_t h = shoff + 40u * i;
    Section& s = o.secs[i];
    s.type = o.u32(h + 4);
    s.flags = o.u32(h + 8);
    s.offset = o.u32(h + 16);
    s.size = o.u32(h + 20);
    s.link = o.u32(h + 24);
    s.info = o.u32(h + 28);
    s.align = std::max<std::uint32_t>(1, o.u32(h + 32));
    s.entsize = o.u32(h + 36);
    if ((s.align & (s.align - 1)) != 0) o.corrupt(fmt::format("section {} alignment {} is not a power of two", i, s.align));
    if (s.type != kShtNobits && s.type != 0 && std::uint64_t{s.offset} + s.size > b.size())
      o.corrupt(fmt::format("section {} extends past the end of the file (offset 0x{:x} size 0x{:x}, file 0x{:x})", i, s.offset, s.size, b.size()));
  }
  if (shstrndx >= shnum) o.corrupt("section name table index out of range");
  for (unsigned i = 0; i < shnum; ++i) o.secs[i].name = o.cstr(shstrndx, o.u32(shoff + 40u * i));
  for (unsigned i = 0; i < shnum; ++i) {
    const Section& s = o.secs[i];
    if (s.type == kShtRel) throw UserError(fmt::format("{}: section {} uses REL relocations; Lanai objects use RELA only", path, s.name));
    if (s.type != kShtSymtab) continue;
    if (s.entsize != 16 || s.size % 16) o.corrupt("symbol table entry size");
    const std::uint32_t n = s.size / 16;
    o.syms.resize(n);
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::size_t e = s.offset + 16u * k;
      Sym& y = o.syms[k];
      y.name = k ? o.cstr(s.link, o.u32(e)) : std::string();
      y.value = o.u32(e + 4);
      y.size = o.u32(e + 8);
      y.bind = o.u8(e + 12) >> 4;
      y.type = o.u8(e + 12) & 15;
      y.shndx = o.u16(e + 14);
      if (y.shndx != kShnUndef && y.shndx < 0xFF00 && y.shndx >= shnum) o.corrupt(fmt::format("symbol {} has section index {} out of range", k, y.shndx));
    }
  }
  return o;
}

bool is_alloc(const Section& s) {
  return (s.flags & kShfAlloc) && (s.type == kShtProgbits || s.type == kShtNobits || s.type == kShtInitArray) && !s.discarded;
}

// .init_array.<prio> sorts by priority, plain .init_array runs last (as GNU ld does).
std::uint32_t init_priority(const std::string& name) {
  const std::string p = ".init_array.";
  if (name.rfind(p, 0) == 0) {
    try {
      return static_cast<std::uint32_t>(std::stoul(name.substr(p.size())));
    } catch (...) {
      return 65536;
    }
  }
  return 65536;
}

struct Placed { std::size_t obj; std::uint32_t sec; };

std::uint32_t align_up(std::uint64_t v, std::uint32_t a) { return static_cast<std::uint32_t>((v + a - 1) & ~std::uint64_t{a - 1}); }

void check_options(const std::vector<std::string>& inputs, const LinkOptions& opt) {
  if (inputs.empty()) throw UserError("sanvp-fwld: no input files");
  if (opt.sram_size == 0 || opt.sram_size % 8 || opt.sram_size > nic::map::kSramMaxSize)
    throw UserError(fmt::format("SRAM size 0x{:x} must be a non-zero multiple of 8 of at most 0x{:x}", opt.sram_size, nic::map::kSramMaxSize));
  if (opt.stack_size % 8 || opt.stack_size == 0) throw UserError(fmt::format("stack size {} must be a non-zero multiple of 8", opt.stack_size));
}

// COMDAT groups: keep the first group of each signature, discard the others' members.
void discard_duplicate_groups(std::vector<Object>& objs) {
  std::set<std::string> groups;
  for (auto& o : objs)
    for (auto& s : o.secs) {
      if (s.type != kShtGroup) continue;
      if (s.size < 4 || s.size % 4) o.corrupt("group section size");
      if (s.info >= o.syms.size()) o.corrupt("group signature symbol out of range");
      const std::string sig = o.syms[s.info].name;
      if (groups.insert(sig).second) continue;
      for (std::uint32_t k = 4; k < s.size; k += 4) {
        const std::uint32_t m = o.u32(s.offset + k);
        if (m >= o.secs.size()) o.corrupt("group member out of range");
        o.secs[m].discarded = true;
      }
    }
}

// One relocation applied to the big-endian word `w`; V = S + A. Throws when V does not fit.
std::uint32_t patch_word(unsigned type, std::uint32_t w, std::uint32_t V, const std::string& at, const std::string& symname,
                         const std::string& path) {
  auto range = [&](std::uint64_t limit, const char* why) {
    if (V >= limit)
      throw UserError(fmt::format("relocation {} out of range at {}: value 0x{:x} of {} does not fit ({})", reloc_name(type), at, V, symname, why));
  };
  switch (type) {
    case 1: range(1u << 21, "21-bit absolute address: data must lie below 2 MiB with -mcmodel=small"); return (w & ~0x007CFFFFu) | ((V >> 16 & 0x1F) << 18) | (V & 0xFFFF);
    case 2: range(1u << 21, "21-bit absolute address"); return (w & ~0x007CFFFCu) | ((V >> 16 & 0x1F) << 18) | (V & 0xFFFC);
    case 3:
      range(1u << 25, "branch targets are absolute 25-bit addresses: code must lie below 32 MiB");
      if (V & 3) throw UserError(fmt::format("relocation R_LANAI_25 at {}: branch target 0x{:x} is not word aligned", at, V));
      return (w & ~0x01FFFFFCu) | (V & 0x01FFFFFCu);
    case 4: return V;
    case 5: return (w & 0xFFFF0000u) | (V >> 16);
    case 6: return (w & 0xFFFF0000u) | (V & 0xFFFF);
    default: throw UserError(fmt::format("{}: unsupported relocation type {} at {}", path, type, at));
  }
}

// The link, step by step (link() below calls them in order). State shared between the steps
// lives here so each step is one function.
class Linker {
 public:
  Linker(std::vector<Object> objs, const LinkOptions& opt) : objs_(std::move(objs)), opt_(opt) {}

  LinkResult run() {
    discard_duplicate_groups(objs_);
    classify();
    lay_out();
    define_linker_symbols();
    collect_globals();
    resolve_symbols();
    std::vector<std::uint8_t> mem = copy_sections();
    for (auto& o : objs_)
      for (std::uint32_t k = 0; k < o.secs.size(); ++k) apply_relocations(o, o.secs[k], mem);
    // Checked after relocation so a misplaced image reports the more specific range error first.
    if (opt_.stack_size >= opt_.sram_size || image_end_ > stack_limit_)
      throw UserError(fmt::format("image larger than SRAM: image ends at 0x{:x} and the stack needs 0x{:x} bytes below 0x{:x} (SRAM size 0x{:x})",
                                  image_end_, opt_.stack_size, stack_top_, opt_.sram_size));
    LinkResult res;
    res.image = make_image(std::move(mem));
    res.image.debug = link_debug();
    res.map = map_text(res.image);
    return res;
  }

 private:
  struct Region { std::string name; std::uint32_t lo, hi; };
  struct Def { std::uint32_t addr; std::size_t obj; bool weak; bool func; std::uint32_t size; };

  // Classify: code, read-only data, init_array (by priority), data, bss.
  void classify() {
    for (std::size_t i = 0; i < objs_.size(); ++i)
      for (std::uint32_t k = 0; k < objs_[i].secs.size(); ++k) {
        const Section& s = objs_[i].secs[k];
        if (!is_alloc(s)) continue;
        if (s.type == kShtInitArray || s.name.rfind(".init_array", 0) == 0) init_.push_back({i, k});
        else if (s.flags & kShfExec) code_.push_back({i, k});
        else if (s.type == kShtNobits) bss_.push_back({i, k});
        else if (s.flags & kShfWrite) data_.push_back({i, k});
        else rodata_.push_back({i, k});
        if (s.name.rfind(".fini_array", 0) == 0 || s.name.rfind(".ctors", 0) == 0)
          throw UserError(fmt::format("{}: section {} is not supported (static destructors need -fno-c++-static-destructors)", objs_[i].path, s.name));
      }
    std::stable_sort(init_.begin(), init_.end(), [&](const Placed& a, const Placed& b) {
      return init_priority(objs_[a.obj].secs[a.sec].name) < init_priority(objs_[b.obj].secs[b.sec].name);
    });
  }

  // Gives each section of `list` its address from cur_ on; the region spans them.
  void place(const std::vector<Placed>& list, const char* region) {
    const std::uint64_t lo = cur_;
    for (const auto& pl : list) {
      Section& s = objs_[pl.obj].secs[pl.sec];
      cur_ = align_up(cur_, s.align);
      s.addr = static_cast<std::uint32_t>(cur_);
      s.placed = true;
      cur_ += s.size;
      if (cur_ > 0xFFFFFFFFull) throw UserError("image does not fit the 32-bit address space");
    }
    cur_ = align_up(cur_, 4);
    regions_.push_back({region, static_cast<std::uint32_t>(lo), static_cast<std::uint32_t>(cur_)});
  }

  void lay_out() {
    cur_ = opt_.text_base;
    place(code_, "code");
    place(rodata_, "rodata");
    cur_ = align_up(cur_, 4);
    place(init_, "init_array");
    place(data_, "data");
    cur_ = align_up(cur_, 8);
    // COMMON symbols (only with -fcommon) go to the start of bss.
    bss_lo_ = cur_;
    place(bss_, "bss");
    for (auto& o : objs_)
      for (auto& y : o.syms)
        if (y.shndx == kShnCommon && !common_addr_.count(y.name)) {
          cur_ = align_up(cur_, std::max<std::uint32_t>(4, y.value));
          common_addr_[y.name] = static_cast<std::uint32_t>(cur_);
          cur_ += y.size;
        }
    cur_ = align_up(cur_, 8);
    regions_.back().hi = static_cast<std::uint32_t>(cur_);
    image_end_ = cur_;
    stack_top_ = opt_.sram_size;
    stack_limit_ = opt_.sram_size - std::min(opt_.sram_size, opt_.stack_size);
  }

  // Synthetic symbols, as a final link would define them.
  void define_linker_symbols() {
    const auto end = static_cast<std::uint32_t>(image_end_);
    synth_ = {
        {"__text_start", regions_[0].lo},       {"__text_end", regions_[0].hi},
        {"__init_array_start", regions_[2].lo}, {"__init_array_end", regions_[2].hi},
        {"__data_start", regions_[3].lo},       {"__data_end", regions_[3].hi},
        {"__bss_start", static_cast<std::uint32_t>(bss_lo_)}, {"__bss_end", end},
        {"_end", end},                          {"__heap_start", end},
        {"__stack_limit", stack_limit_},        {"__stack_top", stack_top_},
        {"__sram_size", opt_.sram_size},
    };
  }

  std::optional<std::uint32_t> sym_address(const Object& o, const Sym& y) const {
    if (y.shndx == kShnAbs) return y.value;
    if (y.shndx == kShnCommon) return common_addr_.at(y.name);
    if (y.shndx == kShnUndef || y.shndx >= o.secs.size()) return std::nullopt;
    const Section& s = o.secs[y.shndx];
    if (!s.placed) return std::nullopt;  // discarded or non-allocated section
    return s.addr + y.value;
  }

  // Global symbol table: a strong definition wins over weak ones; two strong ones are an error.
  void collect_globals() {
    for (std::size_t i = 0; i < objs_.size(); ++i)
      for (const auto& y : objs_[i].syms) {
        if (y.bind == kStbLocal || y.shndx == kShnUndef) continue;
        const auto a = sym_address(objs_[i], y);
        if (!a) continue;  // member of a discarded COMDAT group: the kept copy defines it
        const bool weak = y.bind == kStbWeak;
        auto it = globals_.find(y.name);
        if (it == globals_.end()) {
          globals_[y.name] = {*a, i, weak, y.type == kSttFunc, y.size};
        } else if (!weak && !it->second.weak) {
          if (synth_.count(y.name) == 0)
            throw UserError(fmt::format("duplicate symbol: {} (defined in {} and in {})", y.name, objs_[it->second.obj].path, objs_[i].path));
        } else if (it->second.weak && !weak) {
          it->second = {*a, i, false, y.type == kSttFunc, y.size};
        }
      }
    for (const auto& [n, v] : synth_)
      if (globals_.count(n)) throw UserError(fmt::format("duplicate symbol: {} (reserved by the linker, defined in {})", n, objs_[globals_[n].obj].path));
    if (!globals_.count("__dso_handle")) synth_["__dso_handle"] = regions_[3].lo;
  }

  // Resolve every symbol of every object.
  void resolve_symbols() {
    for (auto& o : objs_) {
      o.sym_addr.assign(o.syms.size(), 0);
      for (std::size_t k = 1; k < o.syms.size(); ++k) {
        const Sym& y = o.syms[k];
        if (y.type == kSttFile) continue;
        std::optional<std::uint32_t> a;
        if (y.bind == kStbLocal) {
          a = sym_address(o, y);
          if (!a && y.type == kSttSection) a = 0;  // section of a discarded group; its relocations are skipped
        } else if (auto g = globals_.find(y.name); g != globals_.end()) {
          a = g->second.addr;
        } else if (auto sy = synth_.find(y.name); sy != synth_.end()) {
          a = sy->second;
        }
        if (a) o.sym_addr[k] = *a;
        else if (y.bind == kStbWeak) o.sym_addr[k] = 0;
        else o.sym_addr[k] = 0xFFFFFFFFu;  // undefined; an error if a relocation uses it
      }
    }
  }

  // The loaded bytes from text_base up to bss.
  std::vector<std::uint8_t> copy_sections() const {
    const std::uint32_t base = opt_.text_base;
    std::vector<std::uint8_t> mem(static_cast<std::uint32_t>(bss_lo_) - base, 0);
    for (auto* list : {&code_, &rodata_, &init_, &data_})
      for (auto& pl : *list) {
        const Object& o = objs_[pl.obj];
        const Section& s = o.secs[pl.sec];
        std::copy_n(o.buf.begin() + s.offset, s.size, mem.begin() + (s.addr - base));
      }
    return mem;
  }

  // Applies the RELA section `r` of `o` (other sections are skipped) to the loaded bytes.
  void apply_relocations(const Object& o, const Section& r, std::vector<std::uint8_t>& mem) const {
    if (r.type != kShtRela) return;
    if (r.info >= o.secs.size()) o.corrupt(fmt::format("relocation section {} targets section {}", r.name, r.info));
    const Section& t = o.secs[r.info];
    if (!is_alloc(t) || !t.placed || t.type == kShtNobits) return;  // debug info, discarded groups
    if (r.entsize != 12 || r.size % 12) o.corrupt(fmt::format("relocation section {} entry size", r.name));
    for (std::uint32_t e = 0; e < r.size; e += 12) {
      const std::uint32_t off = o.u32(r.offset + e), info = o.u32(r.offset + e + 4);
      const std::int32_t addend = static_cast<std::int32_t>(o.u32(r.offset + e + 8));
      const unsigned type = info & 0xFF;
      const std::uint32_t si = info >> 8;
      if (si >= o.syms.size()) o.corrupt(fmt::format("relocation at {} uses symbol {} of {}", o.where(r.info, off), si, o.syms.size()));
      if (type == 0) continue;
      if (std::uint64_t{off} + 4 > t.size) o.corrupt(fmt::format("relocation offset 0x{:x} outside section {}", off, t.name));
      if (o.sym_addr[si] == 0xFFFFFFFFu && o.syms[si].shndx == kShnUndef)
        throw UserError(fmt::format("undefined symbol: {} (referenced from {})", o.syms[si].name, o.where(r.info, off)));
      const std::uint32_t V = o.sym_addr[si] + static_cast<std::uint32_t>(addend);
      std::uint8_t* p = mem.data() + (t.addr + off - opt_.text_base);
      std::uint32_t w = (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
      const std::string symname = o.syms[si].type == kSttSection ? o.secs[o.syms[si].shndx].name : o.syms[si].name;
      w = patch_word(type, w, V, o.where(r.info, off), symname, o.path);
      p[0] = static_cast<std::uint8_t>(w >> 24);
      p[1] = static_cast<std::uint8_t>(w >> 16);
      p[2] = static_cast<std::uint8_t>(w >> 8);
      p[3] = static_cast<std::uint8_t>(w);
    }
  }

  // DWARF (-g): each .debug_* section of all objects is concatenated by name (every object's part
  // at its alignment) and its R_LANAI_32 relocations are applied here, as ld.lld -r rejects them.
  std::vector<DebugSection> link_debug() const {
    std::vector<DebugSection> out;
    std::map<std::string, std::size_t> index;
    std::vector<std::map<std::uint32_t, std::uint32_t>> base(objs_.size());  // section -> offset in its output section
    for (std::size_t i = 0; i < objs_.size(); ++i)
      for (std::uint32_t k = 0; k < objs_[i].secs.size(); ++k) {
        const Section& s = objs_[i].secs[k];
        if ((s.flags & kShfAlloc) || s.type != kShtProgbits || s.name.rfind(".debug_", 0) != 0) continue;
        const auto it = index.emplace(s.name, out.size()).first;
        if (it->second == out.size()) out.push_back({s.name, {}});
        auto& d = out[it->second].data;
        d.resize(align_up(d.size(), s.align), 0);
        if (d.size() + std::uint64_t{s.size} > 0xFFFFFFFFull) throw UserError(fmt::format("debug section {} exceeds 4 GiB", s.name));
        base[i][k] = static_cast<std::uint32_t>(d.size());
        d.insert(d.end(), objs_[i].buf.begin() + s.offset, objs_[i].buf.begin() + s.offset + s.size);
      }
    for (std::size_t i = 0; i < objs_.size(); ++i)
      for (const auto& r : objs_[i].secs) {
        if (r.type != kShtRela || !base[i].count(r.info)) continue;
        const Section& t = objs_[i].secs[r.info];
        relocate_debug(objs_[i], r, base[i], out[index.at(t.name)].data.data() + base[i].at(r.info), t);
      }
    return out;
  }

  // S of a relocation in a debug section: an address, or an offset into a debug section; none
  // for a symbol of a discarded COMDAT copy or an unloaded section.
  std::optional<std::uint32_t> debug_symbol(const Object& o, std::uint32_t si, const std::map<std::uint32_t, std::uint32_t>& base, std::uint32_t sec,
                             std::uint32_t off) const {
    const Sym& y = o.syms[si];
    if (y.shndx != kShnUndef && y.shndx < o.secs.size()) {
      if (auto b = base.find(y.shndx); b != base.end()) return b->second + y.value;
      if (!o.secs[y.shndx].placed) return std::nullopt;
    }
    if (o.sym_addr[si] == 0xFFFFFFFFu && y.shndx == kShnUndef)
      throw UserError(fmt::format("undefined symbol: {} (referenced from {})", y.name, o.where(sec, off)));
    return o.sym_addr[si];
  }

  void relocate_debug(const Object& o, const Section& r, const std::map<std::uint32_t, std::uint32_t>& base, std::uint8_t* data,
                      const Section& t) const {
    if (r.entsize != 12 || r.size % 12) o.corrupt(fmt::format("relocation section {} entry size", r.name));
    for (std::uint32_t e = 0; e < r.size; e += 12) {
      const std::uint32_t off = o.u32(r.offset + e), info = o.u32(r.offset + e + 4);
      const std::uint32_t addend = o.u32(r.offset + e + 8);
      const unsigned type = info & 0xFF;
      const std::uint32_t si = info >> 8;
      if (type == 0) continue;
      if (si >= o.syms.size()) o.corrupt(fmt::format("relocation at {} uses symbol {} of {}", o.where(r.info, off), si, o.syms.size()));
      if (type != 4) throw UserError(fmt::format("{}: unsupported relocation {} in debug section {} at 0x{:x}", o.path, reloc_name(type), t.name, off));
      if (std::uint64_t{off} + 4 > t.size) o.corrupt(fmt::format("relocation offset 0x{:x} outside section {}", off, t.name));
      // A dead symbol gets lld's tombstone in place of S + A: 0, or 1 in .debug_ranges and
      // .debug_loc (where 0,0 would end the list). Its line sequences then start below the code.
      const auto S = debug_symbol(o, si, base, r.info, off);
      const std::uint32_t V = S ? *S + addend : (t.name == ".debug_ranges" || t.name == ".debug_loc" ? 1 : 0);
      for (int b = 0; b < 4; ++b) data[off + b] = static_cast<std::uint8_t>(V >> (24 - 8 * b));
    }
  }

  Image make_image(std::vector<std::uint8_t> mem) const {
    Image im;
    auto entry = globals_.find(opt_.entry);
    if (entry == globals_.end()) throw UserError(fmt::format("undefined symbol: {} (the entry point; link the firmware runtime's crt0)", opt_.entry));
    im.entry = entry->second.addr;
    im.code_lo = regions_[0].lo;
    im.code_hi = regions_[0].hi;
    im.stack_limit = stack_limit_;
    im.stack_top = stack_top_;
    im.sram_size = opt_.sram_size;
    Segment seg;
    seg.addr = opt_.text_base;
    seg.size = static_cast<std::uint32_t>(mem.size());
    seg.data = std::move(mem);
    im.segments.push_back(std::move(seg));
    Segment z;
    z.addr = static_cast<std::uint32_t>(bss_lo_);
    z.size = static_cast<std::uint32_t>(image_end_ - bss_lo_);
    z.zero = true;
    im.segments.push_back(z);
    im.symbols = report_symbols();
    return im;
  }

  // Symbols for reports: every named function/object (locals too: static functions matter),
  // sorted by address.
  std::vector<lanai::Symbol> report_symbols() const {
    std::vector<lanai::Symbol> out;
    std::set<std::pair<std::uint32_t, std::string>> seen;
    for (const auto& o : objs_)
      for (std::size_t k = 1; k < o.syms.size(); ++k) {
        const Sym& y = o.syms[k];
        if (y.name.empty() || y.type == kSttSection || y.type == kSttFile || y.name.rfind(".L", 0) == 0) continue;
        if (y.shndx == kShnUndef || y.bind != kStbLocal) {
          if (y.shndx == kShnUndef) continue;
          auto g = globals_.find(y.name);
          if (g == globals_.end() || g->second.obj != static_cast<std::size_t>(&o - objs_.data())) continue;
        }
        const auto a = sym_address(o, y);
        if (!a || !seen.insert({*a, y.name}).second) continue;
        out.push_back({*a, y.size, y.name, y.type == kSttFunc, {}});
      }
    std::sort(out.begin(), out.end(), [](const lanai::Symbol& a, const lanai::Symbol& b) {
      return a.addr != b.addr ? a.addr < b.addr : a.name < b.name;
    });
    return out;
  }

  std::string map_text(const Image& im) const {
    std::string m;
    m += fmt::format("# sanvp firmware map\nentry       0x{:08x} {}\n", im.entry, opt_.entry);
    m += fmt::format("sram        0x{:08x} bytes\n\nregions:\n", opt_.sram_size);
    for (const auto& r : regions_) m += fmt::format("  {:<11} 0x{:08x}..0x{:08x} {:>8} bytes\n", r.name, r.lo, r.hi, r.hi - r.lo);
    m += fmt::format("  {:<11} 0x{:08x}..0x{:08x} {:>8} bytes\n", "free", static_cast<std::uint32_t>(image_end_), stack_limit_, stack_limit_ - image_end_);
    m += fmt::format("  {:<11} 0x{:08x}..0x{:08x} {:>8} bytes\n", "stack", stack_limit_, stack_top_, stack_top_ - stack_limit_);
    m += "\nsections:\n";
    for (auto* list : {&code_, &rodata_, &init_, &data_, &bss_})
      for (auto& pl : *list) {
        const Section& s = objs_[pl.obj].secs[pl.sec];
        m += fmt::format("  0x{:08x} {:>8} {:<32} {}\n", s.addr, s.size, s.name, objs_[pl.obj].path);
      }
    m += "\nsymbols:\n";
    for (const auto& s : im.symbols) m += fmt::format("  0x{:08x} {:>8} {} {}\n", s.addr, s.size, s.is_function ? 'F' : 'O', s.name);
    m += "\nlinker symbols:\n";
    for (const auto& [n, v] : synth_) m += fmt::format("  0x{:08x} {}\n", v, n);
    if (!im.debug.empty()) m += "\ndebug sections:\n";
    for (const auto& d : im.debug) m += fmt::format("  {:<20} {:>8} bytes\n", d.name, d.data.size());
    return m;
  }

  std::vector<Object> objs_;
  const LinkOptions& opt_;
  std::vector<Placed> code_, rodata_, init_, data_, bss_;
  std::vector<Region> regions_;
  std::uint64_t cur_ = 0, bss_lo_ = 0, image_end_ = 0;
  std::uint32_t stack_top_ = 0, stack_limit_ = 0;
  std::map<std::string, std::uint32_t> common_addr_;
  std::map<std::string, std::uint32_t> synth_;
  std::map<std::string, Def> globals_;
};

}  // namespace

LinkResult link(const std::vector<std::string>& inputs, const LinkOptions& opt) {
  check_options(inputs, opt);
  std::vector<Object> objs;
  for (const auto& p : inputs) objs.push_back(read_object(p));
  return Linker(std::move(objs), opt).run();
}

}  // namespace sanvp::fw
