// The disassembler's text must equal llvm-objdump's for every instruction form, and the
// decoder must reject exactly the words llvm-objdump cannot decode (apart from the forms the
// ISS refuses on purpose: write-back into pc and popc/leadz/trailz into pc).
#include <catch2/catch.hpp>
#include <fstream>
#include <random>
#include <sstream>

#include "hw/nic/iss/disasm.hpp"
#include "hw/nic/iss/isa.hpp"
#include "tb/iss/iss_harness.hpp"

using namespace sanvp::lanai;

namespace {

// objdump text per word (after the address), with symbol annotations removed.
std::vector<std::string> objdump_words(const std::vector<std::uint32_t>& words) {
  const std::string src = sanvp::test::temp_path(".s"), obj = sanvp::test::temp_path(".o");
  {
    std::ofstream f(src);
    for (auto w : words) f << ".long " << w << "\n";
  }
  sanvp::test::tool_output(std::string(LLVM_MC) + " --triple=lanai -filetype=obj " + src + " -o " + obj);
  const std::string out = sanvp::test::tool_output(std::string(LLVM_OBJDUMP) + " -d --no-show-raw-insn " + obj);
  std::remove(src.c_str());
  std::remove(obj.c_str());
  std::vector<std::string> texts;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] != ' ') continue;
    auto c = line.find(':');
    if (c == std::string::npos) continue;
    std::string t = line.substr(c + 1);
    while (!t.empty() && (t[0] == ' ' || t[0] == '\t')) t.erase(0, 1);
    if (t.rfind("sel.", 0) == 0) t = "\t" + t;  // objdump's sel alias starts with a tab of its own
    auto lt = t.find(" <");
    if (lt != std::string::npos) t = t.substr(0, lt);
    texts.push_back(t);
  }
  return texts;
}

bool deliberately_refused(std::uint32_t w) {
  const unsigned top = w >> 28, rs1 = (w >> 18) & 31, rd = (w >> 23) & 31;
  if (top >= 8 && top <= 11 && rs1 == kPc && ((w >> 16) & 1)) return true;                   // RM/RRM write-back into pc
  if (top == 15 && ((w >> 16) & 3) == 3 && rs1 == kPc && ((w >> 10) & 1)) return true;       // SPLS write-back into pc
  if (top == 13 && rd == kPc) return true;                                                    // popc/leadz/trailz into pc
  return false;
}

std::vector<std::uint32_t> words_of_every_form(unsigned per_form) {
  std::mt19937 rng(20261122);
  std::vector<std::uint32_t> w;
  auto r = [&] { return static_cast<std::uint32_t>(rng()); };
  for (unsigned i = 0; i < per_form; ++i) {
    w.push_back(r() & 0x7FFFFFFFu);                                   // RI (all ops, F, H)
    w.push_back(0x80000000u | (r() & 0x1FFFFFFFu));                   // RM load/store, every P/Q
    std::uint32_t rrm = 0xA0000000u | (r() & 0x1FFFFFFFu);            // RRM, no shift op (objdump crashes on it)
    if (((rrm >> 8) & 7) == 7) rrm &= ~0x400u;
    w.push_back(rrm);
    std::uint32_t rr = 0xC0000000u | (r() & 0x0FFFFFFFu);             // RR: ALU with JJJJJ = 0, sel, sh, sha
    const unsigned kind = r() % 4;
    rr &= ~0x000000F8u;
    if (kind == 1) rr |= 0x00000700u;                                  // sel
    if (kind == 2) rr |= 0x00000780u;                                  // sh
    if (kind == 3) rr |= 0x000007C0u;                                  // sha
    w.push_back(rr);
    w.push_back(0xC0000000u | (r() & 0x0FFFFFFFu));                   // RR, any JJJJJ
    w.push_back(0xD0000000u | (r() & 0x0FFC0000u) | (1u + r() % 3u));  // popc/leadz/trailz
    w.push_back(0xE0000000u | (r() & 0x0FFFFFFDu));                   // BR
    w.push_back(0xE0000002u | (r() & 0x0E000001u) | (r() & 0x007C0000u));  // SCC
    w.push_back(0xE1000002u | (r() & 0x0E000001u) | (r() & 0x0000FFFCu));  // BRR
    w.push_back(0xF0000000u | (r() & 0x0FFFFFFFu));                   // SLS / SLI / SPLS
  }
  // Words that matter for compiled code, spelled out.
  for (std::uint32_t x : {0x00000001u, 0x00000000u, 0x15000000u, 0x8116FFFCu, 0x02140000u, 0x8296FFF8u, 0x9293FFFCu,
                          0x02900008u, 0x07880010u, 0x9793FFFCu, 0xC1001D00u, 0xC10C0000u, 0xE6001235u, 0xE6100003u,
                          0xF2062345u, 0xF20F59FFu, 0xF20F6A00u, 0xF20F4401u, 0xC20D2F03u, 0xC01A3A00u})
    w.push_back(x);
  return w;
}

}  // namespace

TEST_CASE("disassembly equals llvm-objdump for every instruction form", "[disasm]") {
  const auto words = words_of_every_form(300);
  const auto texts = objdump_words(words);
  REQUIRE(texts.size() == words.size());
  int mismatches = 0;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string ours = disassemble(words[i], static_cast<std::uint32_t>(4 * i));
    if (ours != texts[i] && mismatches < 20) {
      ++mismatches;
      FAIL_CHECK("word " << std::hex << words[i] << ": objdump '" << texts[i] << "' ours '" << ours << "'");
    }
  }
  CHECK(mismatches == 0);
}

TEST_CASE("the decoder rejects exactly what llvm-objdump cannot decode", "[disasm][decode]") {
  const auto words = words_of_every_form(300);
  const auto texts = objdump_words(words);
  REQUIRE(texts.size() == words.size());
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (deliberately_refused(words[i])) continue;
    const bool illegal = decode(words[i]).op == Op::kIllegal;
    INFO("word " << std::hex << words[i] << " objdump '" << texts[i] << "'");
    CHECK(illegal == (texts[i] == "<unknown>"));
  }
}

TEST_CASE("llvm-mc encodings of the ISA notes' examples decode to the documented fields", "[decode]") {
  const auto w = sanvp::test::assemble("add %r3, 0x1234, %r4\n ld -4[%fp], %pc\n st %r4, [--%sp]\n uld.b [%r3 add %r5], %r4\n"
                                       "beq 0x1234\n mov 0x12345, %r4\n ld.b [%r3++], %r4");
  REQUIRE(w.size() == 7);
  CHECK(w[0] == 0x020C1234u);
  const Insn ld = decode(w[1]);
  CHECK(ld.op == Op::kLoad);
  CHECK(ld.to_pc);
  CHECK(ld.cls == CycleClass::kLoadPc);
  const Insn st = decode(w[2]);
  CHECK(st.mode == AddrMode::kPre);
  CHECK(st.writes_sp);
  CHECK(static_cast<std::int32_t>(st.imm) == -4);
  const Insn ub = decode(w[3]);
  CHECK(ub.width == Width::kByte);
  CHECK(ub.zext);
  CHECK(ub.rrm);
  const Insn b = decode(w[4]);
  CHECK(b.op == Op::kBr);
  CHECK(b.cc == kEq);
  CHECK(b.imm == 0x1234u);
  CHECK(decode(w[5]).imm == 0x12345u);
  const Insn pb = decode(w[6]);
  CHECK(pb.mode == AddrMode::kPost);
  CHECK(static_cast<std::int32_t>(pb.imm) == 1);
}
