#include "platform/fw/symbolize.hpp"

#include <cstdio>
#include <fmt/format.h>
#include <iostream>

#include "hw/base/error.hpp"
#include "platform/fw/builtin_firmware.hpp"
#include "platform/fw/image.hpp"

namespace sanvp::fw {
namespace {

std::string& image_arg() {
  static std::string s;
  return s;
}

// builtin:ID names a built-in image; anything else is a path.
std::string resolve_image(const std::string& arg) {
  if (arg.rfind("builtin:", 0) != 0) return arg;
  const BuiltinFirmware* b = find_builtin_firmware(arg.substr(8));
  if (!b) throw UserError(fmt::format("fw symbolize: unknown built-in firmware '{}' (known: {})", arg, builtin_firmware_names()));
  return b->image;
}

// Only functions: a pc inside a data object is not code, and objects would shadow functions.
lanai::SymbolTable function_table(const Image& im) {
  std::vector<lanai::Symbol> f;
  for (const auto& s : im.symbols)
    if (s.is_function) f.push_back(s);
  return lanai::SymbolTable(std::move(f));
}

}  // namespace

int run_symbolize() {
  const Image im = Image::load(resolve_image(image_arg()));
  const lanai::SymbolTable fns = function_table(im);
  std::string line;
  // GTKWave waits for one answer per value: flush after every line, never stop on bad input.
  while (std::getline(std::cin, line)) {
    const std::string out = symbolize_value(fns, line);
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  }
  return 0;
}

std::string symbolize_value(const lanai::SymbolTable& functions, const std::string& line) {
  std::string v = line;
  while (!v.empty() && (v.back() == '\r' || v.back() == ' ' || v.back() == '\t')) v.pop_back();
  std::size_t i = v.find_first_not_of(" \t");
  if (i == std::string::npos) return line;
  if (v[i] == '#') ++i;
  if (v.size() - i > 2 && v[i] == '0' && (v[i + 1] == 'x' || v[i + 1] == 'X')) i += 2;
  const std::string digits = v.substr(i);
  // Unknown (x) or floating (z) bits, or anything else that is not hex, go back unchanged.
  if (digits.empty() || digits.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos) return line;
  const std::size_t first = digits.find_first_not_of('0');
  if (first != std::string::npos && digits.size() - first > 8) return line;  // wider than 32 bits
  const auto addr = static_cast<std::uint32_t>(first == std::string::npos ? 0 : std::stoul(digits.substr(first), nullptr, 16));
  return functions.describe(addr);
}

CLI::App* add_symbolize_command(CLI::App* fw) {
  auto* sym = fw->add_subcommand("symbolize",
                                 "GTKWave process filter: read one pc value (hex) per line on stdin, write symbol+0xoffset per line");
  sym->add_option("image", image_arg(), "firmware image: a path or builtin:ID")->required();
  return sym;
}

}  // namespace sanvp::fw
