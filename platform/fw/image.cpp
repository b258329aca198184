#include "platform/fw/image.hpp"

#include <fmt/format.h>

#include "hw/nic/memory_map.hpp"
#include "hw/base/error.hpp"
#include "hw/base/io.hpp"

namespace sanvp::fw {

namespace {

constexpr char kMagic[8] = {'S', 'A', 'N', 'V', 'P', 'F', 'W', '1'};
// An optional trailing block: images without debug information end before it, so they are
// byte-identical to those of earlier versions, which ignore it.
constexpr char kDebugMagic[8] = {'S', 'A', 'N', 'V', 'P', 'D', 'W', '1'};

void put32(std::string& o, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) o.push_back(static_cast<char>(v >> (8 * i)));
}

struct Reader {
  const std::string& buf;
  std::size_t pos = 0;
  const std::string& path;
  std::uint32_t u32() {
    need(4);
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= std::uint32_t{static_cast<std::uint8_t>(buf[pos + i])} << (8 * i);
    pos += 4;
    return v;
  }
  void need(std::size_t n) {
    if (buf.size() - pos < n) throw UserError(fmt::format("{}: truncated firmware image", path));
  }
};

// The DWARF block after the symbols (sizes are checked against the file before any copy).
void read_debug(Reader& r, Image& im) {
  r.need(8);
  if (r.buf.compare(r.pos, 8, kDebugMagic, 8) != 0) throw UserError(fmt::format("{}: corrupt firmware image: unknown data after the symbols", r.path));
  r.pos += 8;
  const std::uint32_t n = r.u32();
  if (n > 64) throw UserError(fmt::format("{}: corrupt firmware image: {} debug sections", r.path, n));
  for (std::uint32_t i = 0; i < n; ++i) {
    DebugSection d;
    const std::uint32_t len = r.u32();
    r.need(len);
    d.name = r.buf.substr(r.pos, len);
    r.pos += len;
    const std::uint32_t size = r.u32();
    r.need(size);
    d.data.assign(r.buf.begin() + static_cast<std::ptrdiff_t>(r.pos), r.buf.begin() + static_cast<std::ptrdiff_t>(r.pos + size));
    r.pos += size;
    im.debug.push_back(std::move(d));
  }
  if (r.pos != r.buf.size()) throw UserError(fmt::format("{}: corrupt firmware image: data after the debug sections", r.path));
}

}  // namespace

void Image::save(const std::string& path) const {
  std::string o(kMagic, 8);
  for (std::uint32_t v : {entry, code_lo, code_hi, stack_limit, stack_top, sram_size,
                          static_cast<std::uint32_t>(segments.size()), static_cast<std::uint32_t>(symbols.size())})
    put32(o, v);
  for (const auto& s : segments) {
    put32(o, s.addr);
    put32(o, s.size);
    put32(o, s.zero ? 1 : 0);
    if (!s.zero) o.append(reinterpret_cast<const char*>(s.data.data()), s.data.size());
  }
  for (const auto& s : symbols) {
    put32(o, s.addr);
    put32(o, s.size);
    put32(o, s.is_function ? 1 : 0);
    put32(o, static_cast<std::uint32_t>(s.name.size()));
    o += s.name;
  }
  if (!debug.empty()) {
    o.append(kDebugMagic, 8);
    put32(o, static_cast<std::uint32_t>(debug.size()));
    for (const auto& d : debug) {
      put32(o, static_cast<std::uint32_t>(d.name.size()));
      o += d.name;
      put32(o, static_cast<std::uint32_t>(d.data.size()));
      o.append(reinterpret_cast<const char*>(d.data.data()), d.data.size());
    }
  }
  write_file_checked(path, o, "firmware image");
}

Image Image::load(const std::string& path) {
  // Every loaded image fits a 16 MiB SRAM, plus its symbol table.
  const std::string buf = read_file_limited(path, "firmware image");
  if (buf.size() < 8 || buf.compare(0, 8, kMagic, 8) != 0) {
    if (buf.size() >= 4 && buf.compare(0, 4, "\x7f" "ELF") == 0)
      throw UserError(fmt::format("{}: is an ELF object, not a firmware image (link it with sanvp-fwld, or use add_lanai_firmware)", path));
    throw UserError(fmt::format("{}: not a sanvp firmware image (bad magic)", path));
  }
  Reader r{buf, 8, path};
  Image im;
  im.entry = r.u32();
  im.code_lo = r.u32();
  im.code_hi = r.u32();
  im.stack_limit = r.u32();
  im.stack_top = r.u32();
  im.sram_size = r.u32();
  const std::uint32_t nseg = r.u32(), nsym = r.u32();
  if (nseg > 4096 || nsym > (1u << 22)) throw UserError(fmt::format("{}: corrupt firmware image (counts)", path));
  for (std::uint32_t i = 0; i < nseg; ++i) {
    Segment s;
    s.addr = r.u32();
    s.size = r.u32();
    s.zero = r.u32() != 0;
    // Checked before anything is allocated: a segment never exceeds the largest SRAM.
    if (std::uint64_t{s.addr} + s.size > nic::map::kSramMaxSize)
      throw UserError(fmt::format("{}: corrupt firmware image: segment 0x{:x}+0x{:x} ends beyond the largest SRAM (0x{:x} bytes)", path,
                                  s.addr, s.size, nic::map::kSramMaxSize));
    if (!s.zero) {
      r.need(s.size);
      s.data.assign(buf.begin() + static_cast<std::ptrdiff_t>(r.pos), buf.begin() + static_cast<std::ptrdiff_t>(r.pos + s.size));
      r.pos += s.size;
    }
    im.segments.push_back(std::move(s));
  }
  for (std::uint32_t i = 0; i < nsym; ++i) {
    lanai::Symbol s;
    s.addr = r.u32();
    s.size = r.u32();
    s.is_function = r.u32() != 0;
    const std::uint32_t n = r.u32();
    r.need(n);
    s.name = buf.substr(r.pos, n);
    r.pos += n;
    im.symbols.push_back(std::move(s));
  }
  if (r.pos < buf.size()) read_debug(r, im);
  im.check_header(path);
  return im;
}

void Image::check_header(const std::string& path) const {
  // The header is trusted by the core (it predecodes [code_lo, code_hi)) and the disassembler:
  // every address must lie inside the SRAM the image was linked for, the code inside loaded
  // data. Checked here, a corrupt header is one message instead of gigabytes allocated.
  auto bad = [&](const std::string& why) { throw UserError(fmt::format("{}: corrupt firmware image: {}", path, why)); };
  if (sram_size == 0 || sram_size % 8 || sram_size > nic::map::kSramMaxSize)
    bad(fmt::format("SRAM size 0x{:x} is not a non-zero multiple of 8 of at most 0x{:x}", sram_size, nic::map::kSramMaxSize));
  if (code_hi < code_lo || ((code_lo | code_hi | entry) & 3u))
    bad(fmt::format("code range 0x{:x}..0x{:x} or entry 0x{:x} is reversed or not word-aligned", code_lo, code_hi, entry));
  if (code_hi > sram_size) bad(fmt::format("code range 0x{:x}..0x{:x} ends beyond the 0x{:x}-byte SRAM", code_lo, code_hi, sram_size));
  if (code_lo < code_hi && (entry < code_lo || entry >= code_hi))
    bad(fmt::format("entry 0x{:x} is outside the code range 0x{:x}..0x{:x}", entry, code_lo, code_hi));
  if (stack_limit > stack_top || stack_top > sram_size)
    bad(fmt::format("stack 0x{:x}..0x{:x} is reversed or beyond the 0x{:x}-byte SRAM", stack_limit, stack_top, sram_size));
  bool code_loaded = code_lo == code_hi;
  for (const auto& s : segments) {
    if (std::uint64_t{s.addr} + s.size > sram_size)
      bad(fmt::format("segment 0x{:x}+0x{:x} ends beyond the 0x{:x}-byte SRAM", s.addr, s.size, sram_size));
    code_loaded = code_loaded || (!s.zero && s.addr <= code_lo && std::uint64_t{code_hi} <= std::uint64_t{s.addr} + s.size);
  }
  if (!code_loaded) bad(fmt::format("code range 0x{:x}..0x{:x} is not inside one loaded segment", code_lo, code_hi));
}

}  // namespace sanvp::fw
