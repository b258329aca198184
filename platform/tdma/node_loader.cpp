#include "platform/tdma/node_loader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fmt/format.h>

#include "firmware/tdma/tdma_proto.h"
#include "hw/base/error.hpp"
#include "hw/base/sim_time.hpp"
#include "platform/host/host_interface_driver.hpp"

namespace sanvp::tdma {

namespace abi = sanvp::tdma_abi;

namespace {

std::string tdma_error_text(std::uint32_t code) {
  switch (code) {
    case abi::kErrConfig: return "the host's configuration was refused (role, table size, an entry's kind, route or length out of range)";
    case abi::kErrStartPast: return "the first start had already passed when the firmware read it (raise tdma.sync.start)";
    case abi::kErrNoRoute: return "an entry has no route";
    case abi::kErrSram: return "out of SRAM";
    default: return fmt::format("unknown error {}", code);
  }
}

std::vector<std::uint32_t> entry_words(const TdmaEntry& e) {
  std::uint32_t r[2] = {0, 0};
  for (std::size_t i = 0; i < e.route.size() && i < 8; ++i) r[i / 4] |= std::uint32_t{e.route[i]} << (24 - 8 * (i % 4));
  const std::uint32_t neg = e.offset_ticks < 0 ? abi::kEntryNegative : 0;
  const auto off = static_cast<std::uint32_t>(e.offset_ticks < 0 ? -e.offset_ticks : e.offset_ticks);
  return {e.delta_ticks, e.delta_slots, (e.kind << 24) | neg | static_cast<std::uint32_t>(e.route.size()), off, e.bytes, e.stream, r[0], r[1]};
}

class TdmaLoader : public host::HostInterfaceDriver {
 public:
  using HostInterfaceDriver::HostInterfaceDriver;

  TdmaNodeOutcome run(const TdmaNodePlan& p, host::AppResult& res) {
    res.phase = "waiting for the TDMA firmware's host interface";
    attach(abi::kHifMagic, "TDMA firmware");
    check_version(abi::kHifVersion, abi::kVersion, "TDMA firmware");
    if (p.entries.size() > host_.pio_read(hif(abi::kHifMaxEntries)))
      throw SimError(fmt::format("{}: {} send-table entries exceed the firmware's table", host_.name(), p.entries.size()));
    const std::uint64_t done = alloc_completion(abi::kDoneWords);
    const std::uint32_t stage = host_.pio_read(hif(abi::kHifStage));
    res.phase = "loading the configuration";
    hif_write(abi::kHifRole, {p.master ? abi::kRoleMaster : abi::kRoleSlave, p.lead, static_cast<std::uint32_t>(p.entries.size()), p.cycles,
                              static_cast<std::uint32_t>(p.first >> 32), static_cast<std::uint32_t>(p.first), p.tx_ticks, p.apply,
                              static_cast<std::uint32_t>(done), p.syncs, stage, p.first_slot});
    std::vector<std::uint32_t> table;
    for (const TdmaEntry& e : p.entries) {
      const auto w = entry_words(e);
      table.insert(table.end(), w.begin(), w.end());
    }
    if (!table.empty()) hif_write(abi::kHifTable, table);
    start_firmware(abi::kHifGo);
    TdmaNodeOutcome o;
    stage_all(p, stage, o, res);
    res.phase = "sending (waiting for the firmware's completion)";
    wait_for_word(done, abi::kDoneMagic);
    read_done(done, o);
    return o;
  }

 private:
  // Each message: its sequence word, the header room, the payload (a pattern naming stream and
  // message), one PCI write; its data is in SRAM when the transaction ends. The host waits on its
  // own clock for the RTC to reach the job's instant, from its last reading of the RTC.
  void stage_all(const TdmaNodePlan& p, std::uint32_t stage, TdmaNodeOutcome& o, host::AppResult& res) {
    res.phase = "staging messages into NIC SRAM";
    for (const StageJob& j : p.stage) {
      if (now_ps() >= anchor_at_ + p.resync) read_clock(p, host_time(p, j.rtc));
      sc_core::wait(delay_to(host_time(p, j.rtc)));
      std::vector<std::uint32_t> w(abi::kStageHead / 4 + (j.bytes + 3) / 4, 0);
      w[0] = j.m + 1;
      for (std::size_t i = abi::kStageHead / 4; i < w.size(); ++i) w[i] = (j.stream << 16) ^ (j.m + static_cast<std::uint32_t>(i));
      host_.pio_write(stage + (j.m % abi::kStageN) * abi::kStageBytes, w);
      if (o.staged_at.size() <= j.m) o.staged_at.resize(j.m + 1, kNever);
      o.staged_at[j.m] = now_ps();
    }
  }

  // When, on the host's clock, the RTC reaches `rtc`: from the last reading, at the nominal rate.
  Time host_time(const TdmaNodePlan& p, std::uint64_t rtc) const {
    const double d = (static_cast<double>(rtc) - static_cast<double>(anchor_rtc_)) * p.tick_ps;
    return std::max<Time>(0, anchor_at_ + static_cast<Time>(std::llround(d)));
  }

  // Reads the firmware's clock word by PIO every `poll` until it changes (the firmware woke and
  // published its RTC since the previous read) or until `until`. The new value is taken as the RTC
  // at the previous read, the earliest instant it can have been published: the host then runs
  // ahead of the RTC by at most one poll and one read, and so stages early, never late. No
  // change in time: the old reading stays (tried again at the next job).
  void read_clock(const TdmaNodePlan& p, Time until) {
    const std::uint32_t w0 = host_.pio_read(hif(abi::kHifClock));
    Time before = now_ps();  // the instant the previous read sampled the word
    while (now_ps() + p.poll < until) {
      sc_core::wait(sc_core::sc_time::from_value(p.poll));
      const std::uint32_t w = host_.pio_read(hif(abi::kHifClock));
      if (w == w0) {
        before = now_ps();
        continue;
      }
      const Time now = before;
      // The 64-bit RTC nearest to the one the old reading predicts, with this low word.
      const std::uint64_t guess = anchor_rtc_ + static_cast<std::uint64_t>(static_cast<double>(now - anchor_at_) / p.tick_ps);
      std::uint64_t best = (guess & ~std::uint64_t{0xFFFFFFFF}) | w;
      for (const std::int64_t k : {-1, 1}) {
        const std::uint64_t c = best + static_cast<std::uint64_t>(k * (std::int64_t{1} << 32));
        if (std::llabs(static_cast<std::int64_t>(c - guess)) < std::llabs(static_cast<std::int64_t>(best - guess))) best = c;
      }
      anchor_at_ = now;
      anchor_rtc_ = best;
      return;
    }
  }

  Time anchor_at_ = 0;            // the last reading of the RTC: host time and value (none yet:
  std::uint64_t anchor_rtc_ = 0;  // both started at 0, and the clocks have drifted little)

  void read_done(std::uint64_t done, TdmaNodeOutcome& o) {
    host::HostMemory& mem = host_.memory();
    auto word = [&](std::uint32_t i) { return mem.read_be32(done + 4 * i); };
    o.done = true;
    o.error = word(abi::kDoneError);
    o.sent = word(abi::kDoneSent);
    o.received = word(abi::kDoneReceived);
    o.applied = word(abi::kDoneApplied);
    o.refused = word(abi::kDoneRefused);
    o.data = word(abi::kDoneData);
    o.stage_miss = word(abi::kDoneStageMiss);
    o.best = word(abi::kDoneBest);
    o.data_rx = word(abi::kDoneDataRx);
    o.late = word(abi::kDoneLate);
    o.stale = word(abi::kDoneStale);
  }
};

}  // namespace

void run_tdma_loader(host::Host& host, const TdmaNodePlan& plan, TdmaNodeOutcome& out, host::AppResult& res) {
  TdmaLoader loader(host);
  out = host::run_as_app(res, [&] { return loader.run(plan, res); });
  if (out.error != abi::kErrNone)
    throw SimError(fmt::format("{}: TDMA firmware stopped: {}", host.name(), tdma_error_text(out.error)));
}

}  // namespace sanvp::tdma
