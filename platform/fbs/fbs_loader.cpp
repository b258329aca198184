#include "platform/fbs/fbs_loader.hpp"

#include <fmt/format.h>

#include "firmware/fbs/fbs_proto.h"
#include "hw/base/error.hpp"
#include "hw/base/sim_time.hpp"
#include "platform/host/host_apps.hpp"
#include "platform/host/host_interface_driver.hpp"

namespace sanvp::fbs {

namespace abi = sanvp::fbs_abi;

namespace {

class Loader : public host::HostInterfaceDriver {
 public:
  using HostInterfaceDriver::HostInterfaceDriver;

  NodeOutcome run(const NodePlan& p, host::AppResult& res) {
    res.phase = "waiting for the FBS firmware's host interface";
    attach(abi::kHifMagic, "FBS firmware");
    check_version(abi::kHifVersion, abi::kVersion, "FBS firmware");
    const std::uint32_t max_slots = host_.pio_read(hif(abi::kHifMaxSlots));
    if (p.table.size() > max_slots)
      throw SimError(fmt::format("{}: the schedule has {} sync slots, the firmware takes at most {}", host_.name(), p.table.size(), max_slots));
    const std::uint64_t done = alloc_completion(abi::kDoneWords);
    res.phase = "loading the schedule";
    const std::uint32_t free_run = p.sync_rounds ? p.sync_rounds : abi::kNever;
    hif_write(abi::kHifSlotTicks, {p.slot_ticks, p.packet_len, static_cast<std::uint32_t>(p.table.size()), p.period, p.rounds,
                                   static_cast<std::uint32_t>(p.start >> 32), static_cast<std::uint32_t>(p.start), p.probe_every,
                                   static_cast<std::uint32_t>(done), free_run});
    hif_write(abi::kHifTable, p.table);
    start_firmware(abi::kHifGo);
    res.phase = "synchronizing (waiting for the firmware's completion)";
    wait_for_word(done, abi::kDoneMagic);
    NodeOutcome o;
    host::HostMemory& mem = host_.memory();
    o.done = true;
    o.error = mem.read_be32(done + 4 * abi::kDoneError);
    o.pauses = mem.read_be32(done + 4 * abi::kDonePauses);
    o.paused_ticks = mem.read_be32(done + 4 * abi::kDonePausedTicks);
    o.refused = mem.read_be32(done + 4 * abi::kDoneRefused);
    o.received = mem.read_be32(done + 4 * abi::kDoneReceived);
    o.sent = mem.read_be32(done + 4 * abi::kDoneSent);
    return o;
  }
};

}  // namespace

std::string error_text(std::uint32_t code) {
  switch (code) {
    case abi::kErrNone: return "none";
    case abi::kErrConfig: return "the host's configuration was refused (slot, packet length, sync slots, period or rounds out of range)";
    case abi::kErrStartPast: return "the start time had already passed when the firmware read it (raise fbs.start)";
    case abi::kErrNoRoute: return "the schedule names a destination the route table does not hold, or a route too long for the packet";
    case abi::kErrSram: return "out of SRAM for packet buffers";
    default: return fmt::format("unknown error {}", code);
  }
}

void run_loader(host::Host& host, const NodePlan& plan, NodeOutcome& out, host::AppResult& res) {
  Loader loader(host);
  out = host::run_as_app(res, [&] { return loader.run(plan, res); });
  res.bytes_counted = false;
  if (out.error != abi::kErrNone)
    throw SimError(fmt::format("{}: FBS firmware stopped: {}", host.name(), error_text(out.error)));
}

}  // namespace sanvp::fbs
