#include "platform/tdma/sync_loader.hpp"

#include <fmt/format.h>

#include "firmware/tdma/tdma_proto.h"
#include "hw/base/error.hpp"
#include "hw/base/sim_time.hpp"
#include "platform/host/host_apps.hpp"
#include "platform/host/host_interface_driver.hpp"

namespace sanvp::tdma {

namespace abi = sanvp::tdma_abi;

namespace {

std::string sync_error_text(std::uint32_t code) {
  switch (code) {
    case abi::kErrConfig: return "the host's configuration was refused (role, slot, periods or send table out of range)";
    case abi::kErrStartPast: return "the start time had already passed when the master read it (raise tdma.sync.start)";
    case abi::kErrNoRoute: return "a slave of the send table has no route in the route table";
    case abi::kErrSram: return "out of SRAM";
    default: return fmt::format("unknown error {}", code);
  }
}

class SyncLoader : public host::HostInterfaceDriver {
 public:
  using HostInterfaceDriver::HostInterfaceDriver;

  SyncNodeOutcome run(const SyncNodePlan& p, host::AppResult& res) {
    res.phase = "waiting for the TDMA sync firmware's host interface";
    attach(abi::kHifMagic, "TDMA sync firmware");
    check_version(abi::kHifVersion, abi::kVersion, "TDMA sync firmware");
    if (p.sends.size() > host_.pio_read(hif(abi::kHifMaxSends)))
      throw SimError(fmt::format("{}: {} sync sends per period exceed the firmware's table", host_.name(), p.sends.size()));
    const std::uint64_t done = alloc_completion(abi::kDoneWords);
    res.phase = "loading the configuration";
    hif_write(abi::kHifRole, {p.master ? abi::kRoleMaster : abi::kRoleSlave, p.slot_ticks, p.period, p.periods,
                              static_cast<std::uint32_t>(p.start >> 32), static_cast<std::uint32_t>(p.start), p.tx_ticks, p.apply,
                              static_cast<std::uint32_t>(done), static_cast<std::uint32_t>(p.sends.size())});
    std::vector<std::uint32_t> table;
    for (const auto& [pos, node] : p.sends) table.insert(table.end(), {pos, node});
    if (!table.empty()) hif_write(abi::kHifTable, table);
    start_firmware(abi::kHifGo);
    res.phase = p.master ? "sending timestamps (waiting for the firmware's completion)" : "synchronizing (waiting for the firmware's completion)";
    wait_for_word(done, abi::kDoneMagic);
    host::HostMemory& mem = host_.memory();
    SyncNodeOutcome o;
    o.done = true;
    o.error = mem.read_be32(done + 4 * abi::kDoneError);
    o.sent = mem.read_be32(done + 4 * abi::kDoneSent);
    o.received = mem.read_be32(done + 4 * abi::kDoneReceived);
    o.applied = mem.read_be32(done + 4 * abi::kDoneApplied);
    o.refused = mem.read_be32(done + 4 * abi::kDoneRefused);
    return o;
  }
};

}  // namespace

void run_sync_loader(host::Host& host, const SyncNodePlan& plan, SyncNodeOutcome& out, host::AppResult& res) {
  SyncLoader loader(host);
  out = host::run_as_app(res, [&] { return loader.run(plan, res); });
  if (out.error != abi::kErrNone)
    throw SimError(fmt::format("{}: TDMA sync firmware stopped: {}", host.name(), sync_error_text(out.error)));
}

}  // namespace sanvp::tdma
