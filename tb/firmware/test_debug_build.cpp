// Issue 20 parts 0 and 4, issue 21 part 3: DWARF in images built with -g, `sanvp fw build`, the
// installed CMake package, and `sanvp fw symbolize`.
#include <catch2/catch.hpp>
#include <cxxabi.h>
#include <fmt/format.h>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <unistd.h>

#include "platform/fw/builtin_firmware.hpp"
#include "platform/fw/image.hpp"
#include "tb/firmware/run_util.hpp"

using sanvp::test::run;
using sanvp::test::slurp;

namespace {

std::string bin(const std::string& name) { return std::string(FW_BIN_DIR) + "/" + name; }
std::string tmp(const std::string& name) { return "/tmp/sanvp_dbg_" + std::to_string(getpid()) + "_" + name; }

void write(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  REQUIRE(f.good());
}

struct MapSym { std::uint32_t addr, size; std::string name; };

// The function symbols of a map file ("  0x00000100       36 F _Z3midi").
std::vector<MapSym> map_functions(const std::string& map_path) {
  std::vector<MapSym> out;
  std::istringstream in(slurp(map_path));
  std::string line;
  const std::regex re(R"(^  0x([0-9a-f]{8}) +(\d+) F (\S+)$)");
  std::smatch m;
  while (std::getline(in, line))
    if (std::regex_match(line, m, re)) out.push_back({static_cast<std::uint32_t>(std::stoul(m[1], nullptr, 16)), static_cast<std::uint32_t>(std::stoul(m[2])), m[3]});
  return out;
}

std::uint32_t map_address(const std::string& map_path, const std::string& name) {
  for (const auto& s : map_functions(map_path))
    if (s.name == name) return s.addr;
  FAIL("no symbol " << name << " in " << map_path);
  return 0;
}

// The line of the marker `LINE:<tag>` in a source file (1-based).
int marker_line(const std::string& src, const std::string& tag) {
  std::istringstream in(slurp(src));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find("// LINE:" + tag) != std::string::npos) return n;
  FAIL("no marker " << tag);
  return 0;
}

// llvm-dwarfdump --debug-line rows: address -> line, the first row of each address.
std::map<std::uint32_t, int> line_rows(const std::string& elf) {
  const auto p = run(std::string(LLVM_DWARFDUMP) + " --debug-line " + elf);
  REQUIRE(p.rc == 0);
  std::map<std::uint32_t, int> rows;
  std::istringstream in(p.out);
  std::string line;
  const std::regex re(R"(^0x([0-9a-f]{16}) +(\d+) )");
  std::smatch m;
  while (std::getline(in, line))
    if (line.find("end_sequence") == std::string::npos && std::regex_search(line, m, re)) rows.emplace(static_cast<std::uint32_t>(std::stoull(m[1], nullptr, 16)), std::stoi(m[2]));
  return rows;
}

std::string demangle(const std::string& n) {
  int st = 0;
  char* d = abi::__cxa_demangle(n.c_str(), nullptr, nullptr, &st);
  std::string r = st == 0 && d ? d : n;
  std::free(d);
  return r;
}

}  // namespace

TEST_CASE("an image built with -g carries a DWARF line table whose addresses match the map file", "[debug][dwarf]") {
  const std::string src = std::string(FW_SOURCE_DIR) + "/debug/lines.cpp";
  const auto rows = line_rows(bin("dbg_fw_lines.elf"));
  for (const auto& [tag, sym] : std::vector<std::pair<std::string, std::string>>{{"leaf", "_Z4leafi"}, {"mid", "_Z3midi"}, {"main", "_Z4mainv"}}) {
    const std::uint32_t pc = map_address(bin("dbg_fw_lines.map"), sym);
    INFO(sym << " at 0x" << std::hex << pc);
    REQUIRE(rows.count(pc));
    CHECK(rows.at(pc) == marker_line(src, tag));
  }
  const auto v = run(std::string(LLVM_DWARFDUMP) + " --verify " + bin("dbg_fw_lines.elf"));
  INFO(v.out << v.err);
  CHECK(v.rc == 0);
  const auto info = run(std::string(LLVM_DWARFDUMP) + " --debug-info " + bin("dbg_fw_lines.elf"));
  CHECK(info.out.find(fmt::format("DW_AT_low_pc\t(0x{:08x})", map_address(bin("dbg_fw_lines.map"), "_Z3midi"))) != std::string::npos);
  // The image itself carries the sections (the .elf is only their export for stock tools).
  const auto im = sanvp::fw::Image::load(bin("dbg_fw_lines.img"));
  std::set<std::string> names;
  for (const auto& d : im.debug) names.insert(d.name);
  for (const char* n : {".debug_info", ".debug_abbrev", ".debug_line", ".debug_str", ".debug_frame"}) CHECK(names.count(n));
  const auto r = run(sanvp::test::sanvp_bin() + " fw run " + bin("dbg_fw_lines.img"));
  CHECK(r.rc == 0);
  CHECK(r.out == "sum 18\n");
}

TEST_CASE("without -g the image is unchanged, and -g only appends the debug block", "[debug][dwarf]") {
  const std::string nog = slurp(bin("dbg_fw_lines_nog.img")), g = slurp(bin("dbg_fw_lines.img"));
  REQUIRE(g.size() > nog.size());
  CHECK(g.compare(0, nog.size(), nog) == 0);
  CHECK(g.compare(nog.size(), 8, "SANVPDW1") == 0);
  CHECK(nog.find("SANVPDW1") == std::string::npos);
  CHECK(sanvp::fw::Image::load(bin("dbg_fw_lines_nog.img")).debug.empty());
  // A round trip of a loaded image is the same bytes, with and without debug sections.
  for (const char* n : {"dbg_fw_lines_nog.img", "dbg_fw_lines.img"}) {
    sanvp::fw::Image::load(bin(n)).save(tmp("rt.img"));
    CHECK(slurp(tmp("rt.img")) == slurp(bin(n)));
  }
  std::remove(tmp("rt.img").c_str());
}

TEST_CASE("with -g, two objects sharing a COMDAT function kept once: the DWARF verifies", "[debug][dwarf]") {
  const auto v = run(std::string(LLVM_DWARFDUMP) + " --verify " + bin("dbg_fw_two.elf"));
  INFO(v.out << v.err);
  CHECK(v.rc == 0);
  const auto rows = line_rows(bin("dbg_fw_two.elf"));
  const std::uint32_t twice = map_address(bin("dbg_fw_two.map"), "_Z5twiceIiET_S0_");
  REQUIRE(rows.count(twice));
  CHECK(rows.at(twice) == 4);  // two.h: the line of `T twice(T v) {`
  CHECK(run(sanvp::test::sanvp_bin() + " fw run " + bin("dbg_fw_two.img")).rc == 0);
}

TEST_CASE("sanvp fw build makes the same image as add_lanai_firmware, and -g adds DWARF", "[fwbuild]") {
  const std::string hello = std::string(FW_SOURCE_DIR) + "/../../firmware/examples/hello.cpp";
  const auto p = run(sanvp::test::sanvp_bin() + " fw build " + hello + " -o " + tmp("hello.img"));
  INFO(p.err);
  REQUIRE(p.rc == 0);
  CHECK(slurp(tmp("hello.img")) == slurp(std::string(FW_EXAMPLES_DIR) + "/fw_hello.img"));
  const std::string src = std::string(FW_SOURCE_DIR) + "/debug/lines.cpp";
  const auto g = run(sanvp::test::sanvp_bin() + " fw build -g " + src + " -o " + tmp("lines.img") + " --map " + tmp("lines.map") +
                     " --elf " + tmp("lines.elf"));
  INFO(g.err);
  REQUIRE(g.rc == 0);
  // The loaded bytes and symbols are add_lanai_firmware's; DWARF differs in the compile folder.
  const std::string mine = slurp(tmp("lines.img")), theirs = slurp(bin("dbg_fw_lines.img"));
  REQUIRE(mine.find("SANVPDW1") != std::string::npos);
  CHECK(mine.substr(0, mine.find("SANVPDW1")) == theirs.substr(0, theirs.find("SANVPDW1")));
  const auto rows = line_rows(tmp("lines.elf"));
  CHECK(rows.at(map_address(tmp("lines.map"), "_Z3midi")) == marker_line(src, "mid"));
  // Options reach the compiler: a -D the source needs, an -O level, a bad source is exit 2.
  write(tmp("def.cpp"), "#include \"fw/fw.h\"\nint main() { return VALUE; }\n");
  CHECK(run(sanvp::test::sanvp_bin() + " fw build -O0 -D VALUE=5 " + tmp("def.cpp") + " -o " + tmp("def.img")).rc == 0);
  CHECK(run(sanvp::test::sanvp_bin() + " fw run " + tmp("def.img")).rc == 5);
  const auto bad = run(sanvp::test::sanvp_bin() + " fw build " + tmp("def.cpp") + " -o " + tmp("def.img"));
  CHECK(bad.rc == 2);
  CHECK(bad.err.find("compiling " + tmp("def.cpp")) != std::string::npos);
  CHECK(run(sanvp::test::sanvp_bin() + " fw build /nonexistent.cpp -o " + tmp("x.img")).rc == 2);
  CHECK(run(sanvp::test::sanvp_bin() + " fw build " + hello + " -o " + tmp("x.img") + " --sram-size 99999999999").rc == 2);
  for (const char* f : {"hello.img", "lines.img", "lines.map", "lines.elf", "def.cpp", "def.img"}) std::remove(tmp(f).c_str());
}

TEST_CASE("installed: sanvp fw build and a CMake project with find_package(sanvp) build and run firmware", "[fwbuild][install]") {
  const std::string prefix = tmp("prefix"), proj = tmp("proj"), hello = std::string(FW_SOURCE_DIR) + "/../../firmware/examples/hello.cpp";
  const auto inst = run(std::string(CMAKE_COMMAND) + " --install " + PROJECT_BINARY_DIR + " --prefix " + prefix);
  INFO(inst.out << inst.err);
  REQUIRE(inst.rc == 0);
  // The installed tool finds its own runtime and headers (not the build tree's).
  const auto b = run(prefix + "/bin/sanvp fw build " + hello + " -o " + prefix + "/hello.img");
  INFO(b.err);
  REQUIRE(b.rc == 0);
  const auto r = run(prefix + "/bin/sanvp fw run " + prefix + "/hello.img");
  CHECK(r.rc == 7);
  CHECK(r.out.find("hello from LANai firmware\n") == 0);
  run("mkdir -p " + proj);
  run("cp " + hello + " " + proj + "/hello.cpp");
  write(proj + "/CMakeLists.txt",
        "cmake_minimum_required(VERSION 3.25)\nproject(myfw NONE)\nfind_package(sanvp REQUIRED)\n"
        "add_lanai_firmware(myfw SOURCES hello.cpp FLAGS -g)\n");
  const auto cfg = run(std::string(CMAKE_COMMAND) + " -S " + proj + " -B " + proj + "/build -G Ninja -DCMAKE_PREFIX_PATH=" + prefix);
  INFO(cfg.out << cfg.err);
  REQUIRE(cfg.rc == 0);
  const auto bld = run(std::string(CMAKE_COMMAND) + " --build " + proj + "/build");
  INFO(bld.out << bld.err);
  REQUIRE(bld.rc == 0);
  const auto r2 = run(prefix + "/bin/sanvp fw run " + proj + "/build/myfw.img");
  CHECK(r2.rc == 7);
  CHECK(r2.out == r.out);
  CHECK_FALSE(sanvp::fw::Image::load(proj + "/build/myfw.img").debug.empty());
  run("rm -rf " + prefix + " " + proj);
}

TEST_CASE("fw symbolize: one symbol+offset line per pc line, bad lines echoed, exit 0 at EOF", "[symbolize]") {
  const std::string image = sanvp::fw::builtin_firmware_image("msg");
  const std::string map = image.substr(0, image.size() - 4) + ".map";
  std::map<std::uint32_t, int> at;
  const auto fns = map_functions(map);
  REQUIRE(fns.size() > 5);
  for (const auto& s : fns) ++at[s.addr];
  std::string in, want;
  for (const auto& s : fns) {
    if (at[s.addr] != 1 || s.size < 8) continue;  // aliases: either name is right
    in += fmt::format("{:08x}\n#{:x}\n0x{:08X}\n", s.addr, s.addr + 4, s.addr + s.size - 4);
    const std::string d = demangle(s.name);
    want += fmt::format("{}\n{}+0x4\n{}+0x{:x}\n", d, d, d, s.size - 4);
  }
  in += "xxxxxxxx\nz\n\ngarbage\n00000000\n1ffffffff\n";
  want += "xxxxxxxx\nz\n\ngarbage\n0x00000000\n1ffffffff\n";
  write(tmp("sym.in"), in);
  const auto p = run(sanvp::test::sanvp_bin() + " fw symbolize builtin:msg < " + tmp("sym.in"));
  CHECK(p.rc == 0);
  CHECK(p.out == want);
  const auto q = run(sanvp::test::sanvp_bin() + " fw symbolize " + image + " < " + tmp("sym.in"));
  CHECK(q.out == want);
  std::remove(tmp("sym.in").c_str());
  const auto bad = run(sanvp::test::sanvp_bin() + " fw symbolize /nonexistent/fw.img </dev/null");
  CHECK(bad.rc == 2);
  CHECK(bad.err.find("/nonexistent/fw.img") != std::string::npos);
  const auto unk = run(sanvp::test::sanvp_bin() + " fw symbolize builtin:nope </dev/null");
  CHECK(unk.rc == 2);
  CHECK(unk.err.find("unknown built-in firmware") != std::string::npos);
}
