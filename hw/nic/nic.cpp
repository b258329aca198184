#include "hw/nic/nic.hpp"

#include <fmt/format.h>

#include "hw/nic/core_sram.hpp"
#include "hw/nic/memory_map.hpp"
#include "hw/nic/sram_pci.hpp"
#include "hw/base/error.hpp"
#include "hw/pci/pci_targets.hpp"

namespace sanvp::nic {

Nic::Nic(sc_core::sc_module_name name, ParamValues& pv, std::uint32_t node_id, LanaiCore::Program program, PciBus& pci,
         HostMemoryPort* host, std::uint64_t seed)
    : sc_module(name), node_id_(node_id), bus_("bus") {
  const std::string path = this->name();
  if (node_id > kMaxNicNode)  // its packet ids would collide (hw/link/flit.hpp)
    throw UserError(fmt::format("{}: node {} is above the largest node a NIC can have ({})", path, node_id, kMaxNicNode));
  const auto size = NicParams::kSramBytes.get(pv, path);
  if (size % 8) pv.fail(path, "nic", "sram_bytes", fmt::format("{} is not a multiple of 8", size));
  sram_ = std::make_unique<Sram>("sram", static_cast<std::uint32_t>(size));
  sys_ = std::make_unique<SysRegs>("sys", SysRegsParams::from_params(pv, path + ".sys"));
  osc_ = std::make_unique<Oscillator>(OscillatorConfig::from_params(pv, path + ".osc"), Rng(seed, path + ".osc"));
  regs_ = std::make_unique<NicRegs>("regs", NicRegsParams::kLatency.get(pv, path + ".regs"), *osc_, node_id);
  auto raise = [this](std::uint32_t bits) { regs_->raise(bits); };
  if (host && !pci.map().find(host)) pci.map().claim("host memory", 0, host->size(), host);
  hdma_ = std::make_unique<HostDma>("hdma", *sram_, pci, raise, HostDmaParams::kSetup.get(pv, path + ".hdma"));
  send_ = std::make_unique<SendDma>("send", *sram_, raise, node_id);
  recv_ = std::make_unique<RecvDma>("recv", *sram_, raise, FlowControlConfig::from_params(pv, path));
  const LinkCrc crc = parse_link_crc(NicParams::kLinkCrc.get(pv, path));  // the link check both DMAs use
  send_->set_crc(crc);
  recv_->set_crc(crc);
  regs_->add_window(&hdma_->registers());
  regs_->add_window(&send_->registers());
  send_->set_clock(regs_.get());  // timed sends, STOP/GO timestamps, blocked ticks
  regs_->on_rtc_changed = [this] { send_->rtc_changed(); };
  regs_->add_window(&recv_->registers());
  core_ = std::make_unique<LanaiCore>("core", LanaiCore::Config::from_params(pv, path + ".core"), std::move(program));
  sram_->set_dmi_allowed(core_->config().dmi);
  // A NIC's firmware ending (exit or fault) stops that NIC, not the whole network: whoever runs
  // the simulation watches core().result().
  core_->on_stop = [] {};
  sys_->on_exit = [this](std::uint32_t code, Time when) { core_->request_exit(code, when); };
  sys_->on_probe = [this](std::uint32_t tag, std::uint32_t value, Time when) {
    if (probe_sink_) probe_sink_(ProbeRecord{when, node_id_, regs_->rtc(when), tag, value});
  };
  regs_->current_pc = [this] { return core_->state().pc; };
  core_->socket.bind(bus_.from_initiators);
  bus_.map(sram_->socket, map::kSramBase, static_cast<std::uint64_t>(size), "sram");
  bus_.map(sys_->socket, map::kSysBase, map::kSysSize, "sys");
  bus_.map(regs_->socket, map::kNicRegBase, map::kNicRegSize, "nic registers");
  pci_sram_ = std::make_unique<SramPciTarget>(*sram_);
  connect_core_to_sram(*core_, *sram_);
  pci_regs_ = std::make_unique<PciRegisterTarget>([this](std::uint32_t off, std::uint32_t& v) { return bus_reg_read(off, v); },
                                                  [this](std::uint32_t off, std::uint32_t v) { return bus_reg_write(off, v); });
}

void Nic::declare_traces() {
  regs_->declare_traces();
  sys_->declare_traces();
  hdma_->declare_traces();
  send_->declare_traces();
  recv_->declare_traces();
}

bool Nic::bus_reg_write(std::uint32_t off, std::uint32_t value) {
  if (off != map::nic::kDoorbell) return false;
  regs_->host_doorbell(value);
  return true;
}

bool Nic::bus_reg_read(std::uint32_t off, std::uint32_t& value) const {
  if (off == map::nic::kMailbox) value = regs_->mailbox();
  else if (off == map::nic::kIsr) value = regs_->isr();
  else return false;
  return true;
}

void Nic::host_write32(std::uint32_t addr, std::uint32_t value) {
  if (addr >= map::kNicRegBase) {
    const std::uint32_t off = addr - map::kNicRegBase;
    if (!bus_reg_write(off, value))
      throw SimError(fmt::format("{}: host PIO write to NIC register 0x{:x}: only the doorbell is host-writable", name(), off));
    return;
  }
  if (std::uint64_t{addr} + 4 > sram_->size() || (addr & 3u))
    throw SimError(fmt::format("{}: host PIO write to 0x{:08x}: outside SRAM or misaligned", name(), addr));
  sram_->put32(addr, value, SramWriter::kPci);
}

std::uint32_t Nic::host_read32(std::uint32_t addr) {
  if (addr >= map::kNicRegBase) {
    const std::uint32_t off = addr - map::kNicRegBase;
    std::uint32_t v = 0;
    if (!bus_reg_read(off, v))
      throw SimError(fmt::format("{}: host PIO read of NIC register 0x{:x}: only mailbox and ISR are host-readable", name(), off));
    return v;
  }
  if (std::uint64_t{addr} + 4 > sram_->size() || (addr & 3u))
    throw SimError(fmt::format("{}: host PIO read of 0x{:08x}: outside SRAM or misaligned", name(), addr));
  return get_be32(sram_->data() + addr);
}

nlohmann::json Nic::stats_json() const {
  nlohmann::json j = {{"instructions", core_->state().instret}, {"core_cycles", core_->state().cycles}};
  for (const nlohmann::json& block : {regs_->stats_json(), hdma_->stats_json(), send_->stats_json(), recv_->stats_json()})
    j.update(block);
  return j;
}

LinkPort Nic::link_port() { return single_link_port(*this, name(), input(), input_buffer().config()); }

}  // namespace sanvp::nic
