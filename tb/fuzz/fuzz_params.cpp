// libFuzzer target: `--set key=value` (hw/base/params.*): apply_sets, then what the models
// do with the values -- every catalog parameter resolved with its declared type (class level and
// for the instance a key names), the configuration readers of the fabric, NIC, PCI and host
// (their range checks), the flow-control feasibility check, and the effective configuration.
//
// Input: one --set item per line ("switch.rd=140ns", "sw0.p2.out.ld=30ns", ...).
#include <sstream>

#include "hw/endpoint/traffic_endpoint.hpp"
#include "hw/nic/core.hpp"
#include "hw/nic/oscillator.hpp"
#include "hw/pci/pci_bus.hpp"
#include "hw/switch/switch.hpp"
#include "hw/base/error.hpp"
#include "hw/base/params.hpp"
#include "platform/host/host.hpp"

namespace {

using sanvp::ParamType;
using sanvp::ParamValues;

void resolve(ParamValues& pv, const std::string& path, const sanvp::ParamSpec& p) {
  try {
    switch (p.type) {
      case ParamType::Time: (void)pv.time(path, p.scope, p.name); break;
      case ParamType::Int: (void)pv.integer(path, p.scope, p.name); break;
      case ParamType::Real: (void)pv.real(path, p.scope, p.name); break;
      case ParamType::Bool: (void)pv.boolean(path, p.scope, p.name); break;
      case ParamType::String: (void)pv.string(path, p.scope, p.name); break;
    }
    (void)pv.origin(path, p.scope, p.name);
  } catch (const sanvp::UserError&) {
  }
}

template <class F>
void expect_user_error_only(F&& f) {
  try {
    f();
  } catch (const sanvp::UserError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> sets;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  for (std::string line; std::getline(in, line);) sets.push_back(line);
  ParamValues pv;
  try {
    sanvp::apply_sets(pv, sets);
  } catch (const sanvp::UserError&) {
    return 0;
  }
  const auto catalog = sanvp::ParamCatalog::sorted();
  for (const auto& p : catalog) resolve(pv, "", p);
  // Instance keys ("sw0.p2.out.ld"): resolve that parameter for that instance.
  for (const auto& s : sets) {
    const std::string key = s.substr(0, s.find('='));
    const auto dot = key.rfind('.');
    if (dot == std::string::npos) continue;
    for (const auto& p : catalog)
      if (p.name == key.substr(dot + 1)) resolve(pv, key.substr(0, dot), p);
  }
  expect_user_error_only([&] {
    const auto sw = sanvp::SwitchConfig::from_params(pv, "sw0", static_cast<int>(pv.integer("sw0", "switch", "ports")));
    sanvp::LinkTiming lt;
    lt.ld = pv.time("sw0.p0.out", "link", "ld");
    lt.cp = pv.time("sw0.p0.out", "link", "cp");
    if (lt.cp == 0) return;  // Network::make_channel refuses it before any check
    sw.fc.validate(lt, sw.sd, "sw0.p0.in");
    sw.fc.validate(lt, 0, "n0.in");
  });
  expect_user_error_only([&] { (void)sanvp::TrafficConfig::from_params(pv, "n0"); });
  expect_user_error_only([&] {
    const auto c = sanvp::nic::LanaiCore::Config::from_params(pv, "nic0.core");
    (void)c.clock_hz();
  });
  expect_user_error_only([&] { (void)sanvp::nic::OscillatorConfig::from_params(pv, "nic0.osc"); });
  expect_user_error_only([&] { (void)sanvp::PciConfig::from_params(pv, "pci0"); });
  expect_user_error_only([&] { (void)sanvp::host::HostConfig::from_params(pv, "h0"); });
  expect_user_error_only([&] { pv.check_all_used(); });
  (void)pv.effective().dump();
  return 0;
}
