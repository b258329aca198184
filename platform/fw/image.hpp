// Firmware image: what the project's linker produces and what `sanvp fw run` loads. Memory
// contents per segment, the entry point, the code range (fetches outside it fault), the stack
// window, the symbol table for reports, traces and profiles, and the DWARF sections of a -g build.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "hw/nic/iss/symbols.hpp"

namespace sanvp::fw {

struct Segment {
  std::uint32_t addr = 0;
  std::uint32_t size = 0;
  bool zero = false;                // NOBITS: `size` zero bytes, no data
  std::vector<std::uint8_t> data;   // memory order (big-endian words)
};

// A DWARF section of an image built with -g (.debug_line, .debug_info, ...), relocated by the
// linker: addresses are SRAM addresses, offsets refer to the image's other debug sections.
struct DebugSection {
  std::string name;
  std::vector<std::uint8_t> data;
};

struct Image {
  std::uint32_t entry = 0;
  std::uint32_t code_lo = 0, code_hi = 0;
  std::uint32_t stack_limit = 0, stack_top = 0;
  std::uint32_t sram_size = 0;      // SRAM the image was linked for
  std::vector<Segment> segments;
  std::vector<lanai::Symbol> symbols;
  std::vector<DebugSection> debug;  // empty without -g (the file then ends after the symbols)

  void save(const std::string& path) const;          // UserError for a bad path, IoError when a write fails
  static Image load(const std::string& path);        // throws UserError on a bad file or header
  void check_header(const std::string& path) const;  // addresses inside the SRAM, code loaded
};

}  // namespace sanvp::fw
