// Test fixture for NIC tests: a NicNetwork of hosts whose NICs run the register-level test
// firmware (tb/nic/fw) or the messaging firmware, with backdoor access to firmware symbols.
#pragma once
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hw/base/params.hpp"
#include "platform/fw/image.hpp"
#include "platform/host/nic_network.hpp"

namespace sanvp::test {

inline std::uint32_t symbol(const fw::Image& im, const std::string& name) {
  for (const auto& s : im.symbols)
    if (s.name == name) return s.addr;
  FAIL("no symbol " << name);
  return 0;
}

// The oscillator in closed form, independent of hw/nic/oscillator.cpp: ticks of an oscillator of
// `hz` nominal with `ppm` error at time t, and the earliest time it has completed n ticks.
inline std::uint64_t ticks(Time t, std::uint64_t hz, std::int64_t ppm) {
  using u128 = unsigned __int128;
  return static_cast<std::uint64_t>(static_cast<u128>(t) * hz * static_cast<u128>(1000000 + ppm) /
                                    (static_cast<u128>(1000000000000ull) * 1000000));
}
inline Time tick_time(std::uint64_t n, std::uint64_t hz, std::int64_t ppm) {
  using u128 = unsigned __int128;
  const u128 num = static_cast<u128>(n) * 1000000000000ull * 1000000;
  const u128 den = static_cast<u128>(hz) * static_cast<u128>(1000000 + ppm);
  return static_cast<Time>((num + den - 1) / den);
}

struct NicFixture {
  ParamValues pv;
  fw::Image image;
  host::NicNetwork* net = nullptr;  // lives until the process ends (SystemC modules)

  explicit NicFixture(const std::string& img = NIC_TEST_FW) : image(fw::Image::load(img)) {}
  void set(const std::string& k, const std::string& v) { pv.set(k, v, "test"); }
  host::NicNetwork& build(int hosts, int switches, int ports = 8) {
    host::NicNetworkSpec spec;
    spec.hosts = hosts;
    spec.switches = switches;
    spec.ports = ports;
    net = new host::NicNetwork(pv, 1, image, spec);
    pv.check_all_used();  // a per-instance key that reached no instance is a test bug
    return *net;
  }
  // Backdoor write of 32-bit words at a firmware symbol (before the cores start).
  void poke(int node, const std::string& sym, const std::vector<std::uint32_t>& words) {
    const std::uint32_t a = symbol(image, sym);
    for (std::size_t i = 0; i < words.size(); ++i) {
      const std::uint32_t v = words[i];
      const std::uint8_t b[4] = {std::uint8_t(v >> 24), std::uint8_t(v >> 16), std::uint8_t(v >> 8), std::uint8_t(v)};
      net->nic(node).sram().write(a + static_cast<std::uint32_t>(4 * i), b, 4);
    }
  }
  std::uint32_t peek(int node, const std::string& sym, int index = 0) {
    return net->nic(node).sram().read32(symbol(image, sym) + static_cast<std::uint32_t>(4 * index));
  }
  std::uint32_t result(int node, int index) { return peek(node, "g_result", index); }
  // Runs until every listed node's firmware has exited (or `limit`); fails on a fault.
  void run_until_exit(const std::vector<int>& nodes, Time limit) {
    const Time step = 10 * kUs;
    while (sc_core::sc_time_stamp().value() < limit) {
      bool all = true;
      for (int n : nodes) {
        const auto& r = net->nic(n).core().result();
        if (r.outcome == nic::LanaiCore::Outcome::kFault) FAIL("n" << n << " faulted:\n" << r.fault_report);
        all = all && r.outcome == nic::LanaiCore::Outcome::kExited;
      }
      if (all) return;
      sc_core::sc_start(sc_core::sc_time::from_value(step));
    }
    FAIL("firmware did not exit within " << format_time(limit));
  }
};

}  // namespace sanvp::test
