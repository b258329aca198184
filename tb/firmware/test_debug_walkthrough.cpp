// Issue 20 part 5: docs/debugging.md's walk-through, run, so the document cannot rot. Every
// ```console block of the document that starts with `$ sanvp fw debug` is a session: its
// `(sanvp-dbg) CMD` lines are the script, and every other line must appear in the real output,
// in order (addresses, offsets and times may differ: they are compared as patterns). The key
// facts of the story are then checked against the example's source.
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "tb/firmware/net_scenario.hpp"
#include "tb/firmware/run_util.hpp"

using sanvp::test::run;
using sanvp::test::slurp;

namespace {

const std::string kDoc = std::string(SANVP_SOURCE_DIR) + "/docs/debugging.md";
const std::string kSrc = std::string(SANVP_SOURCE_DIR) + "/firmware/examples/debugging/frames_bug.cpp";
const std::string kImg = std::string(FW_EXAMPLES_DIR) + "/fw_frames_bug.img";

struct Session {
  std::string commands;
  std::vector<std::string> expected;
};

std::vector<Session> sessions() {
  std::vector<Session> v;
  std::istringstream in(slurp(kDoc));
  std::string l;
  bool in_block = false, is_session = false;
  while (std::getline(in, l)) {
    if (l.rfind("```", 0) == 0) {
      in_block = !in_block && l == "```console";
      is_session = false;
      continue;
    }
    if (!in_block) continue;
    if (l.rfind("$ sanvp fw debug ", 0) == 0) {
      is_session = true;
      v.emplace_back();
    } else if (is_session && l.rfind("(sanvp-dbg) ", 0) == 0) {
      v.back().commands += l.substr(12) + "\n";
    } else if (is_session && !l.empty()) {
      v.back().expected.push_back(l);
    }
  }
  return v;
}

// A documented line as a pattern: hex numbers, function offsets and times may differ.
std::regex pattern(const std::string& line) {
  std::string p;
  for (char c : line) p += std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos ? std::string("\\") + c : std::string(1, c);
  p = std::regex_replace(p, std::regex(R"(0x[0-9a-f]{8})"), "0x[0-9a-f]{8}");
  p = std::regex_replace(p, std::regex(R"(\\\+0x[0-9a-f]+>)"), "\\+0x[0-9a-f]+>");
  p = std::regex_replace(p, std::regex(R"(t=[0-9.]+ ?[munp]?s, [0-9]+ instructions)"), "t=[0-9.]+ ?[munp]?s, [0-9]+ instructions");
  return std::regex("^" + p + "$");
}

int line_of(const std::string& text) { return sanvp::test::line_containing(kSrc, text); }

}  // namespace

TEST_CASE("walk-through: docs/debugging.md's sessions print what the document shows", "[debugger][docs]") {
  const auto all = sessions();
  REQUIRE(!all.empty());
  for (const auto& s : all) {
    const std::string f = "/tmp/sanvp_walk_" + std::to_string(getpid());
    std::ofstream(f) << s.commands;
    const auto p = run(sanvp::test::sanvp_bin() + " fw debug " + kImg + " --commands " + f);
    std::remove(f.c_str());
    INFO(s.commands << "----\n" << p.out << p.err);
    std::istringstream out(p.out);
    std::vector<std::string> lines;
    for (std::string l; std::getline(out, l);) lines.push_back(l);
    std::size_t at = 0;
    for (const auto& e : s.expected) {
      const std::regex re = pattern(e);
      while (at < lines.size() && !std::regex_match(lines[at], re)) ++at;
      INFO("documented line not printed (in this order): " << e);
      REQUIRE(at < lines.size());
      ++at;
    }
  }
}

TEST_CASE("walk-through: the watchpoint catches the off-by-one store in fill_payload, called from make_frame", "[debugger][docs]") {
  const int bug = line_of("f.payload[i] = "), call = line_of("fill_payload(f, "), build = line_of("make_frame(frames[i], i + 1)");
  const std::string f = "/tmp/sanvp_walk_" + std::to_string(getpid());
  std::ofstream(f) << "watch frames+12 4\ncontinue\ncontinue\nbt\n";
  const auto p = run(sanvp::test::sanvp_bin() + " fw debug " + kImg + " --commands " + f);
  std::remove(f.c_str());
  INFO(p.out << p.err);
  CHECK(p.rc == 1);  // the bug is still there: the run goes on to "4 of 4 frames bad"
  // First the legitimate write of seq = 1 (make_frame), then payload[12] over seq's high byte:
  // 16 * seq + 12 = 0x1c for frame 0 (big-endian: byte +0 of seq).
  CHECK(std::regex_search(p.out, std::regex(R"(watchpoint 1 \(frames\+12\) written by the store at 0x[0-9a-f]{8} <[^>]*make_frame[^\n]*: \[\+3\] 0x00 -> 0x01)")));
  CHECK(std::regex_search(p.out, std::regex(fmt::format(R"(watchpoint 1 \(frames\+12\) written by the store at 0x[0-9a-f]{{8}} <[^>]*fill_payload[^>]*> frames_bug.cpp:{}: \[\+0\] 0x00 -> 0x1c)", bug))));
  CHECK(std::regex_search(p.out, std::regex(fmt::format(R"(\n#1  0x[0-9a-f]{{8}} <[^>]*make_frame[^>]*> frames_bug.cpp:{}\n#2  0x[0-9a-f]{{8}} <[^>]*build_frames[^>]*> frames_bug.cpp:{}\n#3  0x[0-9a-f]{{8}} <main\(\)\+0x)", call, build))));
  CHECK(p.out.find("frame 0: bad sequence number 0x1c000001 (expected 1)\n") != std::string::npos);
}
