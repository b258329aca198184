#include "platform/fw/debug_line.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>

#include "hw/base/error.hpp"

namespace sanvp::fw {
namespace {

// A bounds-checked big-endian reader over one debug section.
struct Cursor {
  const std::vector<std::uint8_t>& b;
  std::size_t pos;
  std::size_t end;
  const std::string& what;

  [[noreturn]] void bad() const { throw UserError(fmt::format("{}: corrupt .debug_line at offset 0x{:x}", what, pos)); }
  std::uint64_t be(unsigned n) {
    if (end - pos < n) bad();
    std::uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) v = (v << 8) | b[pos + i];
    pos += n;
    return v;
  }
  std::uint64_t uleb() {
    std::uint64_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
      if (pos >= end || shift > 63) bad();
      const std::uint8_t c = b[pos++];
      v |= std::uint64_t{c & 0x7Fu} << shift;
      if (!(c & 0x80)) return v;
    }
  }
  std::int64_t sleb() {
    std::int64_t v = 0;
    unsigned shift = 0;
    std::uint8_t c = 0;
    do {
      if (pos >= end || shift > 63) bad();
      c = b[pos++];
      v |= static_cast<std::int64_t>(c & 0x7Fu) << shift;
      shift += 7;
    } while (c & 0x80);
    if (shift < 64 && (c & 0x40)) v |= -(std::int64_t{1} << shift);
    return v;
  }
  std::string cstr() {
    std::string s;
    while (true) {
      if (pos >= end) bad();
      const char c = static_cast<char>(b[pos++]);
      if (!c) return s;
      s += c;
    }
  }
};

const std::vector<std::uint8_t>* section(const Image& im, const char* name) {
  for (const auto& d : im.debug)
    if (d.name == name) return &d.data;
  return nullptr;
}

std::string str_at(const std::vector<std::uint8_t>* sec, std::uint64_t off, const std::string& what) {
  if (!sec || off >= sec->size()) throw UserError(fmt::format("{}: corrupt DWARF string offset 0x{:x}", what, off));
  std::string s;
  for (std::size_t i = off; i < sec->size() && (*sec)[i]; ++i) s += static_cast<char>((*sec)[i]);
  return s;
}

// One attribute value of a v5 directory/file entry: a string (path forms) or a number.
std::string read_form(Cursor& c, std::uint64_t form, const Image& im, std::uint64_t* num) {
  switch (form) {
    case 0x08: return c.cstr();                                                          // string
    case 0x1f: return str_at(section(im, ".debug_line_str"), c.be(4), c.what);           // line_strp
    case 0x0e: return str_at(section(im, ".debug_str"), c.be(4), c.what);                // strp
    case 0x0f: *num = c.uleb(); return {};                                               // udata
    case 0x0b: *num = c.be(1); return {};
    case 0x05: *num = c.be(2); return {};
    case 0x06: *num = c.be(4); return {};
    case 0x07: *num = c.be(8); return {};
    case 0x1e: c.be(8); c.be(8); return {};                                              // data16 (MD5)
    case 0x09: { const auto n = c.uleb(); if (c.end - c.pos < n) c.bad(); c.pos += n; return {}; }  // block
    default: c.bad();
  }
}

struct Header {
  unsigned version = 0, min_inst = 1, line_range = 1, opcode_base = 1;
  int line_base = 0;
  bool default_stmt = true;
  std::vector<std::uint8_t> std_len;
  std::vector<std::string> files;  // full paths, in the unit's numbering
};

// v5 entry list: format pairs, count, entries; returns (path, directory index) per entry.
std::vector<std::pair<std::string, std::uint64_t>> v5_entries(Cursor& c, const Image& im) {
  const unsigned nfmt = static_cast<unsigned>(c.be(1));
  std::vector<std::pair<std::uint64_t, std::uint64_t>> fmts;
  for (unsigned i = 0; i < nfmt; ++i) {
    const std::uint64_t type = c.uleb();  // two statements: argument evaluation order is unspecified
    fmts.emplace_back(type, c.uleb());
  }
  const std::uint64_t n = c.uleb();
  if (n > 100000) c.bad();
  std::vector<std::pair<std::string, std::uint64_t>> out;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::pair<std::string, std::uint64_t> e{"", 0};
    for (const auto& [type, form] : fmts) {
      std::uint64_t num = 0;
      std::string s = read_form(c, form, im, &num);
      if (type == 1) e.first = s;        // DW_LNCT_path
      else if (type == 2) e.second = num;  // DW_LNCT_directory_index
    }
    out.push_back(std::move(e));
  }
  return out;
}

std::string join(const std::string& dir, const std::string& name) {
  if (name.empty() || name[0] == '/' || dir.empty()) return name;
  return dir + "/" + name;
}

Header read_header(Cursor& c, const Image& im) {
  Header h;
  h.version = static_cast<unsigned>(c.be(2));
  if (h.version < 4 || h.version > 5) c.bad();
  if (h.version == 5) c.be(2);  // address size, segment selector size
  const std::uint64_t hlen = c.be(4);
  const std::size_t prog = c.pos + hlen;
  h.min_inst = static_cast<unsigned>(c.be(1));
  c.be(1);  // max ops per instruction
  h.default_stmt = c.be(1) != 0;
  h.line_base = static_cast<std::int8_t>(c.be(1));
  h.line_range = static_cast<unsigned>(c.be(1));
  h.opcode_base = static_cast<unsigned>(c.be(1));
  if (h.line_range == 0 || h.opcode_base == 0) c.bad();
  for (unsigned i = 1; i < h.opcode_base; ++i) h.std_len.push_back(static_cast<std::uint8_t>(c.be(1)));
  if (h.version == 5) {
    const auto dirs = v5_entries(c, im);
    for (const auto& [name, di] : v5_entries(c, im)) h.files.push_back(join(di < dirs.size() ? dirs[di].first : "", name));
  } else {
    std::vector<std::string> dirs{""};
    for (std::string d = c.cstr(); !d.empty(); d = c.cstr()) dirs.push_back(d);
    h.files.emplace_back();  // v4 numbers files from 1
    for (std::string f = c.cstr(); !f.empty(); f = c.cstr()) {
      const auto di = c.uleb();
      c.uleb();
      c.uleb();
      h.files.push_back(join(di < dirs.size() ? dirs[di] : "", f));
    }
  }
  if (prog > c.end) c.bad();
  c.pos = prog;
  return h;
}

}  // namespace

LineTable::LineTable(const Image& im, const std::string& what) {
  const auto* sec = section(im, ".debug_line");
  if (!sec) return;
  std::map<std::string, std::uint32_t> file_ids;
  std::vector<std::vector<LineRow>> seqs;
  Cursor top{*sec, 0, sec->size(), what};
  while (top.pos < top.end) {
    const std::uint64_t len = top.be(4);
    if (len >= 0xFFFFFFF0u || len > top.end - top.pos) top.bad();
    Cursor c{*sec, top.pos, top.pos + len, what};
    top.pos += len;
    const Header h = read_header(c, im);
    std::vector<std::uint32_t> ids;
    for (const auto& f : h.files) {
      const auto it = file_ids.emplace(f, static_cast<std::uint32_t>(files_.size())).first;
      if (it->second == files_.size()) files_.push_back(f);
      ids.push_back(it->second);
    }
    LineRow r;
    std::vector<LineRow> seq;
    auto reset = [&] { r = LineRow{}; r.line = 1; r.file = h.version == 5 ? 0 : 1; r.is_stmt = h.default_stmt; };
    auto emit = [&] {
      LineRow o = r;
      o.file = r.file < ids.size() ? ids[r.file] : 0;
      seq.push_back(o);
      r.prologue_end = false;
      if (r.end_sequence) {
        seqs.push_back(std::move(seq));
        seq.clear();
        reset();
      }
    };
    reset();
    while (c.pos < c.end) {
      const unsigned op = static_cast<unsigned>(c.be(1));
      if (op >= h.opcode_base) {
        const unsigned adj = op - h.opcode_base;
        r.addr += (adj / h.line_range) * h.min_inst;
        r.line = static_cast<std::uint32_t>(static_cast<std::int64_t>(r.line) + h.line_base + adj % h.line_range);
        emit();
        continue;
      }
      switch (op) {
        case 0: {
          const std::uint64_t n = c.uleb();
          if (n == 0 || c.end - c.pos < n) c.bad();
          const std::size_t next = c.pos + n;
          const unsigned sub = static_cast<unsigned>(c.be(1));
          if (sub == 1) {
            r.end_sequence = true;
            emit();
          } else if (sub == 2) {
            r.addr = static_cast<std::uint32_t>(c.be(static_cast<unsigned>(std::min<std::uint64_t>(n - 1, 8))));
          }
          c.pos = next;
          break;
        }
        case 1: emit(); break;
        case 2: r.addr += static_cast<std::uint32_t>(c.uleb() * h.min_inst); break;
        case 3: r.line = static_cast<std::uint32_t>(static_cast<std::int64_t>(r.line) + c.sleb()); break;
        case 4: r.file = static_cast<std::uint32_t>(c.uleb()); break;
        case 6: r.is_stmt = !r.is_stmt; break;
        case 8: r.addr += ((255 - h.opcode_base) / h.line_range) * h.min_inst; break;
        case 9: r.addr += static_cast<std::uint32_t>(c.be(2)); break;
        case 10: r.prologue_end = true; break;
        default:  // column, basic block, epilogue, isa and unknown opcodes: skip their operands
          for (unsigned i = 0; i < h.std_len[op - 1]; ++i) c.uleb();
      }
    }
  }
  for (auto& s : seqs)
    if (!s.empty() && s.front().addr >= im.code_lo && s.back().addr <= im.code_hi) rows_.insert(rows_.end(), s.begin(), s.end());
  std::stable_sort(rows_.begin(), rows_.end(), [](const LineRow& a, const LineRow& b) {
    return a.addr != b.addr ? a.addr < b.addr : a.end_sequence > b.end_sequence;  // an end before the next start
  });
}

const LineRow* LineTable::find(std::uint32_t pc) const {
  auto it = std::upper_bound(rows_.begin(), rows_.end(), pc, [](std::uint32_t a, const LineRow& r) { return a < r.addr; });
  if (it == rows_.begin()) return nullptr;
  --it;
  return it->end_sequence ? nullptr : &*it;
}

bool LineTable::is_stmt_start(std::uint32_t pc) const {
  auto it = std::lower_bound(rows_.begin(), rows_.end(), pc, [](const LineRow& r, std::uint32_t a) { return r.addr < a; });
  for (; it != rows_.end() && it->addr == pc; ++it)
    if (it->is_stmt && !it->end_sequence) return true;
  return false;
}

namespace {
bool file_matches(const std::string& full, const std::string& want) {
  if (full == want) return true;
  return full.size() > want.size() && full.compare(full.size() - want.size(), want.size(), want) == 0 &&
         full[full.size() - want.size() - 1] == '/';
}
}  // namespace

std::uint32_t LineTable::address_of(const std::string& file, std::uint32_t line, std::uint32_t* found_line) const {
  std::uint32_t best_line = 0, best_addr = 0;
  for (const auto& r : rows_) {
    if (!r.is_stmt || r.end_sequence || r.line < line || !file_matches(files_[r.file], file)) continue;
    if (best_line == 0 || r.line < best_line || (r.line == best_line && r.addr < best_addr)) {
      best_line = r.line;
      best_addr = r.addr;
    }
  }
  if (found_line) *found_line = best_line;
  return best_line ? best_addr : 0;
}

std::uint32_t LineTable::after_prologue(std::uint32_t lo, std::uint32_t hi) const {
  for (const auto& r : rows_)
    if (r.addr >= lo && r.addr < hi && r.prologue_end && !r.end_sequence) return r.addr;
  return lo;
}

std::string LineTable::where(std::uint32_t pc) const {
  const LineRow* r = find(pc);
  if (!r) return {};
  const std::string& f = files_[r->file];
  return fmt::format("{}:{}", f.substr(f.rfind('/') == std::string::npos ? 0 : f.rfind('/') + 1), r->line);
}

}  // namespace sanvp::fw
