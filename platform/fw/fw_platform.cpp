#include "platform/fw/fw_platform.hpp"

#include <fmt/format.h>
#include <ostream>

#include "hw/nic/core_sram.hpp"
#include "hw/nic/memory_map.hpp"
#include "hw/base/error.hpp"

namespace sanvp::fw {

nic::LanaiCore::Program program_of(const Image& image) {
  nic::LanaiCore::Program p;
  p.entry = image.entry;
  p.code_lo = image.code_lo;
  p.code_hi = image.code_hi;
  p.stack_limit = image.stack_limit;
  p.symbols = lanai::SymbolTable(image.symbols);
  return p;
}

const Segment* load_segments(nic::Sram& sram, const Image& image) {
  for (const auto& s : image.segments) {
    if (std::uint64_t{s.addr} + s.size > sram.size()) return &s;
    if (!s.zero) sram.write(s.addr, s.data.data(), s.size);
  }
  return nullptr;
}

FwPlatform::FwPlatform(sc_core::sc_module_name name, ParamValues& pv, const Image& image, std::ostream* console)
    : sc_module(name), bus("bus") {
  const std::string path = this->name();
  const auto size = nic::SramParams::kSize.get(pv, path + ".sram");
  if (size % 8) pv.fail(path + ".sram", "nic.sram", "size", fmt::format("{} is not a multiple of 8", size));
  if (static_cast<std::uint64_t>(size) < image.sram_size)
    throw UserError(fmt::format("image was linked for 0x{:x} bytes of SRAM (its stack starts at the top) but nic.sram.size is 0x{:x}",
                                image.sram_size, size));
  sram = std::make_unique<nic::Sram>("sram", static_cast<std::uint32_t>(size));
  if (const Segment* s = load_segments(*sram, image))
    throw UserError(fmt::format("image segment 0x{:x}+0x{:x} does not fit the SRAM (0x{:x} bytes)", s->addr, s->size, size));
  sys = std::make_unique<nic::SysRegs>("sys", nic::SysRegsParams::from_params(pv, path + ".sys"));
  core = std::make_unique<nic::LanaiCore>("core", nic::LanaiCore::Config::from_params(pv, path + ".core"), program_of(image));
  sram->set_dmi_allowed(core->config().dmi);
  nic::connect_core_to_sram(*core, *sram);
  if (console) sys->on_console = [console](char c) { console->put(c); };
  sys->on_exit = [this](std::uint32_t code, Time when) { core->request_exit(code, when); };
  core->socket.bind(bus.from_initiators);
  bus.map(sram->socket, nic::map::kSramBase, static_cast<std::uint64_t>(size), "sram");
  bus.map(sys->socket, nic::map::kSysBase, nic::map::kSysSize, "sys");
}

namespace {
// "ns::f(int, char*) const" -> "ns::f": strips the last balanced parameter list.
std::string without_params(const std::string& d) {
  const auto close = d.rfind(')');
  if (close == std::string::npos) return d;
  int depth = 0;
  for (std::size_t i = close + 1; i-- > 0;) {
    if (d[i] == ')') ++depth;
    else if (d[i] == '(' && --depth == 0) return d.substr(0, i);
  }
  return d;
}
}  // namespace

std::vector<std::pair<std::uint32_t, std::uint32_t>> parse_pc_filter(const std::string& spec, const Image& image) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  lanai::SymbolTable syms(image.symbols);
  // Split at commas outside parentheses and angle brackets: "f(int, int),g" is two items.
  std::vector<std::string> items(1);
  int depth = 0;
  for (char c : spec) {
    if (c == '(' || c == '<') ++depth;
    if (c == ')' || c == '>') --depth;
    if (c == ',' && depth == 0) items.emplace_back();
    else items.back() += c;
  }
  for (const std::string& item : items) {
    if (item.empty()) continue;
    const auto dash = item.find_first_of("-:");
    if (item.rfind("0x", 0) == 0 && dash != std::string::npos) {
      const auto lo = parse_int(item.substr(0, dash), "--fw-trace-filter");
      const auto hi = parse_int(item.substr(dash + 1), "--fw-trace-filter");
      if (lo < 0 || hi <= lo || hi > 0xFFFFFFFFll) throw UserError(fmt::format("--fw-trace-filter: '{}' is not a range LO-HI", item));
      out.emplace_back(static_cast<std::uint32_t>(lo), static_cast<std::uint32_t>(hi));
      continue;
    }
    auto add_range = [&](const lanai::Symbol& s) {
      std::uint32_t hi = s.addr + s.size;
      if (s.size == 0) {
        hi = image.code_hi;
        for (const auto& o : syms.all())
          if (o.addr > s.addr) { hi = o.addr; break; }
      }
      out.emplace_back(s.addr, hi);
    };
    if (const lanai::Symbol* s = syms.by_name(item)) {
      add_range(*s);
      continue;
    }
    // A function named without its parameter list, and possibly without its namespaces
    // ("main", "fib", "ns::f"), selects every function of that name.
    bool found = false;
    for (const auto& s : syms.all()) {
      const std::string base = without_params(s.display);
      const bool qualified_match = base.size() > item.size() + 2 && base.compare(base.size() - item.size() - 2, std::string::npos, "::" + item) == 0;
      if (s.is_function && (base == item || qualified_match)) {
        add_range(s);
        found = true;
      }
    }
    if (!found) throw UserError(fmt::format("--fw-trace-filter: no symbol '{}' in the image (give a symbol or a pc range 0xLO-0xHI)", item));
  }
  return out;
}

}  // namespace sanvp::fw
