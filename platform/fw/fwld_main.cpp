// sanvp-fwld: the firmware linker as a command-line tool (used by add_lanai_firmware).
//   sanvp-fwld -o fw.img [--map fw.map] [--elf fw.elf] [--sram-size N] [--stack-size N] [--text-base A] in.o...
#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fstream>

#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "platform/fw/elf_export.hpp"
#include "platform/fw/linker.hpp"

int main(int argc, char** argv) {
  CLI::App app{"sanvp-fwld - link Lanai relocatable objects into a sanvp firmware image"};
  std::vector<std::string> inputs;
  std::string out, map, elf, sram = std::to_string(sanvp::nic::map::kSramDefaultSize), stack = "16384",
                        base = std::to_string(sanvp::nic::map::kImageBase);
  app.add_option("inputs", inputs, "Lanai ELF relocatable objects (ld.lld -r output)")->required();
  app.add_option("-o,--output", out, "firmware image to write")->required();
  app.add_option("--map", map, "map file to write");
  app.add_option("--elf", elf, "also write the image as an ELF file with its DWARF sections (for llvm-dwarfdump, llvm-objdump -l)");
  app.add_option("--sram-size", sram, "SRAM size in bytes (the stack sits at its top)")->capture_default_str();
  app.add_option("--stack-size", stack, "stack size in bytes")->capture_default_str();
  app.add_option("--text-base", base, "address of the first code byte")->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : sanvp::kExitUserError;
  }
  try {
    sanvp::fw::LinkOptions opt;
    auto u32 = [](const std::string& s, const char* what) {
      std::size_t used = 0;
      unsigned long long v = 0;
      try {
        v = std::stoull(s, &used, 0);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != s.size() || s[0] == '-' || v > 0xFFFFFFFFull)
        throw sanvp::UserError(fmt::format("{}: '{}' is not an unsigned 32-bit number", what, s));
      return static_cast<std::uint32_t>(v);
    };
    opt.sram_size = u32(sram, "--sram-size");
    opt.stack_size = u32(stack, "--stack-size");
    opt.text_base = u32(base, "--text-base");
    const auto res = sanvp::fw::link(inputs, opt);
    res.image.save(out);
    if (!map.empty()) {
      std::ofstream m(map);
      if (!m || !(m << res.map)) throw sanvp::UserError(fmt::format("{}: cannot write map file", map));
    }
    if (!elf.empty()) sanvp::write_file_checked(elf, sanvp::fw::image_to_elf(res.image), "ELF file");
  } catch (const sanvp::UserError& e) {
    fmt::print(stderr, "sanvp-fwld: error: {}\n", e.what());
    return sanvp::kExitUserError;
  } catch (const sanvp::IoError& e) {
    fmt::print(stderr, "sanvp-fwld: error: {}\n", e.what());
    return sanvp::kExitSimError;
  }
  return 0;
}

// The linker runs no simulation, but the core library it shares with the simulator is built
// against SystemC; an unoptimized build (the asan preset) keeps that reference, and
// libsystemc.so then asks for its entry point. Never called: main() above is the entry.
extern "C" int sc_main(int, char**) { return 1; }
