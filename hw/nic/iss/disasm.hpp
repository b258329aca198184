// Disassembler producing the same text as `llvm-objdump -d` (LLVM 14) for every instruction
// form, so traces and fault reports read like the toolchain's own listings.
#pragma once
#include <cstdint>
#include <string>

namespace sanvp::lanai {

const char* reg_name(unsigned r);  // "r3", "sp", "pc", ...

// Text of the instruction `word` at address `pc`, e.g. "add\t%r3, 0x1234, %sp". Branch targets
// print as absolute hex addresses without symbol (callers may append one).
std::string disassemble(std::uint32_t word, std::uint32_t pc = 0);

// Same as disassemble() with the tab replaced by a space padding the mnemonic to 7 columns.
std::string disassemble_pretty(std::uint32_t word, std::uint32_t pc = 0);

}  // namespace sanvp::lanai
