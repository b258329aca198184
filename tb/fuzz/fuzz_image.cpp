// libFuzzer target: firmware images (platform/fw/image.*): Image::load, then what `sanvp fw run`
// and the reports do with a loaded image before the simulation starts (the core's program:
// symbol table with demangled names, symbol lookups), and a save/load round trip that must give
// the same image. Image::load reads a path: the input is written to a private temp file.
#include <cstdio>
#include <cstdlib>

#include "hw/nic/iss/symbols.hpp"
#include "hw/base/error.hpp"
#include "platform/fw/image.hpp"
#include "tb/fuzz/fuzz_util.hpp"

namespace {

bool same(const sanvp::fw::Image& a, const sanvp::fw::Image& b) {
  if (a.entry != b.entry || a.code_lo != b.code_lo || a.code_hi != b.code_hi || a.stack_limit != b.stack_limit ||
      a.stack_top != b.stack_top || a.sram_size != b.sram_size || a.segments.size() != b.segments.size() ||
      a.symbols.size() != b.symbols.size())
    return false;
  for (std::size_t i = 0; i < a.segments.size(); ++i) {
    const auto &x = a.segments[i], &y = b.segments[i];
    if (x.addr != y.addr || x.size != y.size || x.zero != y.zero || x.data != y.data) return false;
  }
  for (std::size_t i = 0; i < a.symbols.size(); ++i) {
    const auto &x = a.symbols[i], &y = b.symbols[i];
    if (x.addr != y.addr || x.size != y.size || x.name != y.name || x.is_function != y.is_function) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = sanvp::fuzz::write_temp("image.img", data, size);
  sanvp::fw::Image im;
  try {
    im = sanvp::fw::Image::load(path);
  } catch (const sanvp::UserError&) {
    return 0;
  }
  const sanvp::lanai::SymbolTable syms(im.symbols);
  for (std::uint32_t a : {im.entry, im.code_lo, im.code_hi, im.stack_limit, im.stack_top, 0u, 0xFFFFFFFFu}) {
    (void)syms.describe(a);
    (void)syms.find(a);
  }
  for (const auto& s : syms.all()) {
    (void)syms.by_name(s.name);
    (void)syms.by_name(s.display);
  }
  const std::string again = sanvp::fuzz::temp_dir() + "/again.img";
  im.save(again);
  sanvp::fw::Image im2;
  try {
    im2 = sanvp::fw::Image::load(again);
  } catch (const sanvp::UserError& e) {
    std::fprintf(stderr, "fuzz_image: a saved image does not load: %s\n", e.what());
    std::abort();
  }
  if (!same(im, im2)) {
    std::fprintf(stderr, "fuzz_image: save/load round trip changed the image\n");
    std::abort();
  }
  return 0;
}
