// The DWARF line table (.debug_line, versions 4 and 5, big-endian Lanai) of a firmware image:
// address <-> file:line for the debugger's breakpoints, stepping and frame lines.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "platform/fw/image.hpp"

namespace sanvp::fw {

struct LineRow {
  std::uint32_t addr = 0;
  std::uint32_t line = 0;
  std::uint32_t file = 0;  // index into LineTable::files()
  bool is_stmt = false, prologue_end = false, end_sequence = false;
};

class LineTable {
 public:
  LineTable() = default;
  // Parses the image's .debug_line; sequences outside [code_lo, code_hi) (the tombstones of
  // discarded COMDAT copies) are dropped. Throws UserError naming `what` on a corrupt table.
  LineTable(const Image& im, const std::string& what);

  bool empty() const { return rows_.empty(); }
  const std::vector<LineRow>& rows() const { return rows_; }  // sorted by address, sequences kept whole
  const std::vector<std::string>& files() const { return files_; }
  // The row covering `pc` (the last row at or below it in its sequence), or nullptr.
  const LineRow* find(std::uint32_t pc) const;
  // True when `pc` starts a statement row (where a source-level step stops).
  bool is_stmt_start(std::uint32_t pc) const;
  // The lowest statement address of `file:line` (file matched by full path, or by its last
  // path components); the next line with code when `line` has none. 0 when nothing matches.
  std::uint32_t address_of(const std::string& file, std::uint32_t line, std::uint32_t* found_line) const;
  // The first prologue_end row in [lo, hi), else lo.
  std::uint32_t after_prologue(std::uint32_t lo, std::uint32_t hi) const;
  std::string where(std::uint32_t pc) const;  // "lines.cpp:12" or ""

 private:
  std::vector<LineRow> rows_;
  std::vector<std::string> files_;
};

}  // namespace sanvp::fw
