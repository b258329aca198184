// The firmware linker's specific errors, from crafted inputs, and its layout guarantees.
#include <catch2/catch.hpp>
#include <fstream>
#include <unistd.h>

#include "hw/base/error.hpp"
#include "platform/fw/linker.hpp"
#include "tb/firmware/run_util.hpp"

using sanvp::fw::link;
using sanvp::fw::LinkOptions;

namespace {

std::string tmp(const std::string& name) { return "/tmp/sanvp_ld_" + std::to_string(getpid()) + "_" + name; }

// Compiles C++ source for Lanai with the firmware flags into an object file.
std::string compile(const std::string& name, const std::string& source, const std::string& flags = "") {
  const std::string src = tmp(name + ".cpp"), obj = tmp(name + ".o");
  {
    std::ofstream f(src);
    f << source;
  }
  const auto p = sanvp::test::run(std::string(LANAI_CLANGXX) + " --target=lanai -O2 -ffreestanding -fno-exceptions -fno-rtti " +
                                  "-fno-threadsafe-statics -fno-c++-static-destructors " + flags + " -I" FW_SOURCE_DIR "/../../firmware/runtime/include -I" FW_SOURCE_DIR "/../.. -c " + src + " -o " + obj);
  REQUIRE(p.rc == 0);
  std::remove(src.c_str());
  return obj;
}

std::string bytes_of(const std::string& path) { return sanvp::test::slurp(path); }

std::string write_file(const std::string& name, const std::string& bytes) {
  const std::string p = tmp(name);
  std::ofstream f(p, std::ios::binary);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return p;
}

std::string link_error(const std::vector<std::string>& inputs, const LinkOptions& opt = {}) {
  try {
    link(inputs, opt);
  } catch (const sanvp::UserError& e) {
    return e.what();
  }
  return "(no error)";
}

const char* kMain = "#include \"fw/fw.h\"\nint main() { printf(\"x\"); return 0; }\n";

}  // namespace

TEST_CASE("a complete firmware links: entry, code range, stack, symbols, map", "[loader]") {
  const auto obj = compile("ok", kMain);
  const auto res = link({obj, LANAI_RUNTIME_OBJ}, LinkOptions{});
  const auto& im = res.image;
  CHECK(im.code_lo == 0x100);
  CHECK(im.code_hi > im.code_lo);
  CHECK(im.stack_top == 2u << 20);
  CHECK(im.stack_limit == (2u << 20) - 16384);
  bool has_start = false, has_main = false;
  for (const auto& s : im.symbols) {
    has_start |= s.name == "_start" && s.addr == im.entry;
    has_main |= s.name == "_Z4mainv" && s.is_function && s.addr >= im.code_lo && s.addr < im.code_hi;
  }
  CHECK(has_start);
  CHECK(has_main);
  CHECK(res.map.find("regions:") != std::string::npos);
  CHECK(res.map.find("_Z4mainv") != std::string::npos);
  CHECK(res.map.find("__stack_top") != std::string::npos);
  std::remove(obj.c_str());
}

TEST_CASE("undefined symbol", "[loader]") {
  const auto obj = compile("undef", "int missing_fn(int);\nint main() { return missing_fn(3); }\n");
  const auto e = link_error({obj, LANAI_RUNTIME_OBJ});
  CHECK(e.rfind("undefined symbol: _Z10missing_fni (referenced from .text+0x", 0) == 0);
  std::remove(obj.c_str());
}

TEST_CASE("duplicate symbol", "[loader]") {
  const auto a = compile("dupa", "int shared_value = 1;\nint main() { return shared_value; }\n");
  const auto b = compile("dupb", "int shared_value = 2;\n");
  const auto e = link_error({a, b, LANAI_RUNTIME_OBJ});
  CHECK(e.rfind("duplicate symbol: shared_value (defined in " + a + " and in " + b + ")", 0) == 0);
  std::remove(a.c_str());
  std::remove(b.c_str());
}

TEST_CASE("relocation out of range: code above 32 MiB", "[loader]") {
  const auto obj = compile("far", kMain);
  LinkOptions opt;
  opt.text_base = 0x02000000;
  const auto e = link_error({obj, LANAI_RUNTIME_OBJ}, opt);
  CHECK(e.rfind("relocation R_LANAI_25 out of range at .text+0x", 0) == 0);
  CHECK(e.find("code must lie below 32 MiB") != std::string::npos);
  std::remove(obj.c_str());
}

TEST_CASE("relocation out of range: small code model data above 2 MiB", "[loader]") {
  const auto obj = compile("small", "int counter;\nint main() { return ++counter; }\n", "-mcmodel=small");
  LinkOptions opt;
  opt.text_base = 0x00200000;
  opt.sram_size = 0x00400000;
  const auto e = link_error({obj, LANAI_RUNTIME_OBJ}, opt);
  CHECK(e.rfind("relocation R_LANAI_21 out of range at ", 0) == 0);
  std::remove(obj.c_str());
}

TEST_CASE("image larger than SRAM", "[loader]") {
  const auto obj = compile("big", "char table[64 * 1024] = {1};\nint main() { return table[0]; }\n");
  LinkOptions opt;
  opt.sram_size = 0x10000;
  const auto e = link_error({obj, LANAI_RUNTIME_OBJ}, opt);
  INFO(e);
  CHECK(e.rfind("image larger than SRAM: image ends at 0x", 0) == 0);
  std::remove(obj.c_str());
}

TEST_CASE("wrong ELF machine, class and endianness", "[loader]") {
  const auto obj = compile("hdr", kMain);
  const std::string good = bytes_of(obj);
  std::string m = good;
  m[18] = 0;
  m[19] = 62;  // EM_X86_64, big-endian field
  CHECK(link_error({write_file("machine.o", m)}) == tmp("machine.o") + ": wrong ELF machine 62 (x86-64); expected EM_LANAI (244) — compile with clang++ --target=lanai");
  std::string c = good;
  c[4] = 2;
  CHECK(link_error({write_file("class.o", c)}) == tmp("class.o") + ": wrong ELF class (ELFCLASS64); Lanai objects are ELFCLASS32");
  std::string d = good;
  d[5] = 1;
  CHECK(link_error({write_file("endian.o", d)}) == tmp("endian.o") + ": wrong endianness (little-endian); Lanai objects are big-endian (ELFDATA2MSB)");
  for (const char* n : {"machine.o", "class.o", "endian.o"}) std::remove(tmp(n).c_str());
  std::remove(obj.c_str());
}

TEST_CASE("truncated and corrupt files", "[loader]") {
  const auto obj = compile("trunc", kMain);
  const std::string good = bytes_of(obj);
  CHECK(link_error({write_file("t1.o", good.substr(0, 40))}).find("truncated or corrupt ELF file: ELF header is cut short") != std::string::npos);
  CHECK(link_error({write_file("t2.o", good.substr(0, good.size() / 2))}).find("truncated or corrupt ELF file: section header table extends past the end") != std::string::npos);
  std::string bad = good;
  // Point the first real section's offset far beyond the file.
  const std::uint32_t shoff = (std::uint32_t(std::uint8_t(good[32])) << 24) | (std::uint32_t(std::uint8_t(good[33])) << 16) |
                              (std::uint32_t(std::uint8_t(good[34])) << 8) | std::uint8_t(good[35]);
  for (int k = 0; k < 4; ++k) bad[shoff + 40 + 16 + k] = static_cast<char>(0x7F);
  CHECK(link_error({write_file("t3.o", bad)}).find("truncated or corrupt ELF file: section 1 extends past the end of the file") != std::string::npos);
  CHECK(link_error({write_file("t4.o", "not an elf at all")}) == tmp("t4.o") + ": not an ELF file");
  CHECK(link_error({tmp("does_not_exist.o")}) == tmp("does_not_exist.o") + ": cannot open input file");
  for (const char* n : {"t1.o", "t2.o", "t3.o", "t4.o"}) std::remove(tmp(n).c_str());
  std::remove(obj.c_str());
}

TEST_CASE("sanvp-fwld reports one line and exits 2", "[loader][cli]") {
  const auto obj = compile("cli", "int nope();\nint main() { return nope(); }\n");
  const auto p = sanvp::test::run(std::string(FWLD_PATH) + " -o " + tmp("cli.img") + " " + obj + " " + LANAI_RUNTIME_OBJ);
  CHECK(p.rc == 2);
  CHECK(p.err.rfind("sanvp-fwld: error: undefined symbol: _Z4nopev", 0) == 0);
  CHECK(std::count(p.err.begin(), p.err.end(), '\n') == 1);
  std::remove(obj.c_str());
}

TEST_CASE("image files: round trip and corrupt images", "[loader][image]") {
  const auto obj = compile("img", kMain);
  const auto res = link({obj, LANAI_RUNTIME_OBJ}, LinkOptions{});
  const std::string path = tmp("rt.img");
  res.image.save(path);
  const auto back = sanvp::fw::Image::load(path);
  CHECK(back.entry == res.image.entry);
  CHECK(back.symbols.size() == res.image.symbols.size());
  CHECK(back.segments.size() == res.image.segments.size());
  CHECK(back.segments[0].data == res.image.segments[0].data);
  const std::string bytes = bytes_of(path);
  const std::string cut = write_file("cut.img", bytes.substr(0, bytes.size() - 10));
  CHECK_THROWS_WITH(sanvp::fw::Image::load(cut), cut + ": truncated firmware image");
  for (const auto& p : {path, cut}) std::remove(p.c_str());
  std::remove(obj.c_str());
}

TEST_CASE("COMDAT inline functions in two objects link once, weak definitions yield to strong ones", "[loader]") {
  const std::string common = "template <int N> __attribute__((noinline)) int tmpl(int x) { return x * N + 1; }\n";
  const auto a = compile("cda", common + "int from_b(int);\n__attribute__((weak)) int tunable() { return 1; }\n"
                                          "int main() { return tmpl<3>(2) + from_b(4) + tunable(); }\n");
  const auto b = compile("cdb", common + "int from_b(int x) { return tmpl<3>(x); }\nint tunable() { return 100; }\n");
  const auto res = link({a, b, LANAI_RUNTIME_OBJ}, LinkOptions{});
  int copies = 0;
  std::uint32_t tunable_addr = 0;
  for (const auto& s : res.image.symbols) {
    copies += s.name == "_Z4tmplILi3EEii";
    if (s.name == "_Z7tunablev") tunable_addr = s.addr;
  }
  CHECK(copies == 1);
  // The strong tunable() from b wins: its section comes after a's in the layout.
  const auto line = res.map.find("_Z7tunablev");
  REQUIRE(line != std::string::npos);
  CHECK(tunable_addr != 0);
  const std::string img = tmp("comdat.img");
  res.image.save(img);
  const auto p = sanvp::test::run(sanvp::test::sanvp_bin() + " fw run " + img);
  CHECK(p.rc == (2 * 3 + 1) + (4 * 3 + 1) + 100);
  for (const auto& f : {a, b, img}) std::remove(f.c_str());
}
