#include "platform/fw/elf_export.hpp"

#include <algorithm>

namespace sanvp::fw {
namespace {

constexpr std::uint32_t kShtProgbits = 1, kShtSymtab = 2, kShtStrtab = 3, kShtNobits = 8;
constexpr std::uint32_t kShfWrite = 1, kShfAlloc = 2, kShfExec = 4;

struct OutSection {
  std::string name;
  std::uint32_t type = kShtProgbits, flags = 0, addr = 0, size = 0, link = 0, info = 0, align = 1, entsize = 0;
  std::string data;
  std::uint32_t name_off = 0, offset = 0;
};

void be32(std::string& o, std::uint32_t v) {
  for (int i = 3; i >= 0; --i) o.push_back(static_cast<char>(v >> (8 * i)));
}
void be16(std::string& o, std::uint16_t v) {
  o.push_back(static_cast<char>(v >> 8));
  o.push_back(static_cast<char>(v));
}

// The loaded segment split at code_hi: code (executable) and the rest (rodata, init_array, data).
void add_memory(const Image& im, std::vector<OutSection>& secs) {
  for (const auto& seg : im.segments) {
    if (seg.zero) {
      if (seg.size) secs.push_back({".bss", kShtNobits, kShfAlloc | kShfWrite, seg.addr, seg.size, 0, 0, 8, 0, {}});
      continue;
    }
    const std::uint64_t end = std::uint64_t{seg.addr} + seg.size;
    const std::uint32_t lo = std::clamp<std::uint64_t>(im.code_lo, seg.addr, end) - seg.addr;
    const std::uint32_t hi = std::clamp<std::uint64_t>(im.code_hi, seg.addr, end) - seg.addr;
    auto bytes = [&](std::uint32_t a, std::uint32_t b) { return std::string(seg.data.begin() + a, seg.data.begin() + b); };
    if (hi > lo) secs.push_back({".text", kShtProgbits, kShfAlloc | kShfExec, seg.addr + lo, hi - lo, 0, 0, 4, 0, bytes(lo, hi)});
    if (seg.size > hi) secs.push_back({".data", kShtProgbits, kShfAlloc | kShfWrite, seg.addr + hi, seg.size - hi, 0, 0, 4, 0, bytes(hi, seg.size)});
  }
}

// Every symbol global (no locals to order first); functions point into .text.
void add_symbols(const Image& im, std::vector<OutSection>& secs) {
  OutSection sym{".symtab", kShtSymtab, 0, 0, 0, 0, 1, 4, 16, {}};
  OutSection str{".strtab", kShtStrtab, 0, 0, 0, 0, 0, 1, 0, std::string(1, '\0')};
  sym.data.assign(16, '\0');
  for (const auto& s : im.symbols) {
    std::uint16_t shndx = 0xFFF1;  // SHN_ABS unless a section holds it
    for (std::size_t k = 0; k < secs.size(); ++k)
      if (s.addr >= secs[k].addr && s.addr - secs[k].addr < std::max<std::uint32_t>(secs[k].size, 1) && (secs[k].flags & kShfAlloc))
        shndx = static_cast<std::uint16_t>(k + 1);
    be32(sym.data, static_cast<std::uint32_t>(str.data.size()));
    be32(sym.data, s.addr);
    be32(sym.data, s.size);
    sym.data.push_back(static_cast<char>((1 << 4) | (s.is_function ? 2 : 1)));
    sym.data.push_back(0);
    be16(sym.data, shndx);
    str.data += s.name;
    str.data.push_back('\0');
  }
  sym.link = static_cast<std::uint32_t>(secs.size() + 2);  // .strtab, 1-based after the null section
  secs.push_back(std::move(sym));
  secs.push_back(std::move(str));
}

}  // namespace

std::string image_to_elf(const Image& im) {
  std::vector<OutSection> secs;
  add_memory(im, secs);
  for (const auto& d : im.debug) secs.push_back({d.name, kShtProgbits, 0, 0, 0, 0, 0, 1, 0, std::string(d.data.begin(), d.data.end())});
  add_symbols(im, secs);
  OutSection shstr{".shstrtab", kShtStrtab, 0, 0, 0, 0, 0, 1, 0, std::string(1, '\0')};
  for (auto& s : secs) {
    s.name_off = static_cast<std::uint32_t>(shstr.data.size());
    shstr.data += s.name + '\0';
  }
  shstr.name_off = static_cast<std::uint32_t>(shstr.data.size());
  shstr.data += std::string(".shstrtab") + '\0';
  secs.push_back(std::move(shstr));
  std::string body;
  const std::uint32_t hdr = 52;
  for (auto& s : secs) {
    while ((hdr + body.size()) % 4) body.push_back('\0');
    s.offset = static_cast<std::uint32_t>(hdr + body.size());
    if (s.type != kShtNobits) {
      s.size = static_cast<std::uint32_t>(s.data.size());
      body += s.data;
    }
  }
  while ((hdr + body.size()) % 4) body.push_back('\0');
  const auto shoff = static_cast<std::uint32_t>(hdr + body.size());
  std::string o = std::string("\x7f" "ELF", 4) + std::string{1, 2, 1, 0} + std::string(8, '\0');  // ELF32, MSB, v1
  be16(o, 2);    // ET_EXEC
  be16(o, 244);  // EM_LANAI
  be32(o, 1);
  be32(o, im.entry);
  be32(o, 0);  // no program headers: stock tools only read sections
  be32(o, shoff);
  be32(o, 0);
  for (std::uint16_t v : {std::uint16_t{52}, std::uint16_t{0}, std::uint16_t{0}, std::uint16_t{40},
                          static_cast<std::uint16_t>(secs.size() + 1), static_cast<std::uint16_t>(secs.size())})
    be16(o, v);
  o += body;
  o += std::string(40, '\0');
  for (const auto& s : secs)
    for (std::uint32_t v : {s.name_off, s.type, s.flags, s.addr, s.offset, s.size, s.link, s.info, s.align, s.entsize}) be32(o, v);
  return o;
}

}  // namespace sanvp::fw
