#include "hw/nic/recv_dma.hpp"
#include "hw/base/sim_time.hpp"

#include "hw/link/link.hpp"
#include "hw/nic/memory_map.hpp"

namespace sanvp::nic {

namespace r = map::nic;

RecvDma::RecvDma(sc_core::sc_module_name name, Sram& sram, RaiseIrq raise, const FlowControlConfig& fc)
    : sc_module(name), sram_(sram), raise_(std::move(raise)), fc_("in", fc) {
  fc_.set_head_listener([this](Time arrival) { drain_ev_.at(arrival); });
  SC_METHOD(drain);
  sensitive << drain_ev_.event();
  dont_initialize();
  SC_METHOD(complete);
  sensitive << done_ev_;
  dont_initialize();
}

void RecvDma::declare_traces() {
  // 0 idle, 1 storing, 2 dropping, 3 waiting for a buffer (back-pressure)
  state_sig_.declare(name(), "state", 2);
  fc_.declare_traces();
}

const RegisterMap<RecvDma> RecvDma::kRegisters{"recv", map::kNicRegBase, {
    {r::kRxRing, "RX_RING", Access::RW, 0, "SRAM address of the descriptor ring (8-byte aligned: low bits ignored)",
     [](RecvDma& m) { return m.ring_; }, [](RecvDma& m, std::uint32_t v) { m.ring_ = v & ~7u; }},
    {r::kRxSize, "RX_SIZE", Access::RW, 0, "ring entries (0 = no ring; larger than 4096 means 4096)",
     [](RecvDma& m) { return m.size_; }, [](RecvDma& m, std::uint32_t v) { m.size_ = std::min<std::uint32_t>(v, 4096); }},
    {r::kRxBufSize, "RX_BUFSIZE", Access::RW, 0, "bytes per receive buffer",
     [](RecvDma& m) { return m.bufsize_; }, [](RecvDma& m, std::uint32_t v) { m.bufsize_ = v; }},
    {r::kRxPolicy, "RX_POLICY", Access::RW, 0, "bit 0: no free buffer: 0 back-pressures the link, 1 drops and counts",
     [](RecvDma& m) { return m.policy_; }, [](RecvDma& m, std::uint32_t v) { m.policy_ = v & 1u; }},
    // Enabling, and every later write, makes the engine look at the ring again (the firmware's
    // "I handed buffers back" kick).
    {r::kRxCtrl, "RX_CTRL", Access::RW, 0, "bit 0: enabled (a disabled receiver back-pressures); every write rechecks the ring",
     [](RecvDma& m) { return m.ctrl_; }, [](RecvDma& m, std::uint32_t v) { m.ctrl_ = v & 1u; m.kick(); }},
    {r::kRxTail, "RX_TAIL", Access::R, 0, "descriptors filled (engine), mod 2^32",
     [](RecvDma& m) { return m.filled_; }},
    {r::kRxDrops, "RX_DROPS", Access::R, 0, "packets dropped for want of a buffer",
     [](RecvDma& m) { return static_cast<std::uint32_t>(m.stats_.drops); }},
    {r::kRxCrcErrors, "RX_CRC_ERRORS", Access::R, 0, "packets received with a bad CRC (delivered, flagged)",
     [](RecvDma& m) { return static_cast<std::uint32_t>(m.stats_.crc_errors); }},
}};

nlohmann::json RecvDma::stats_json() const {
  nlohmann::json j{{"packets_received", stats_.packets},
                   {"bytes_received", stats_.bytes},
                   {"rx_crc_errors", stats_.crc_errors},
                   {"rx_drops", stats_.drops}};
  // The probe's counts wherever faults can reach this NIC (runs without faults keep their reports).
  const bool faulty_input = fc_.upstream() && fc_.upstream()->faults();
  if (stats_.damaged || faulty_input) {
    j["rx_damaged"] = stats_.damaged;
    j["rx_undetected_corruptions"] = stats_.undetected;
    j["rx_undetected_losses"] = stats_.undetected_lost;
    j["link_crc"] = link_crc_name(crc_.kind);
  }
  return j;
}

void RecvDma::kick() {
  if (blocked_) {
    blocked_ = false;
    drain_ev_.now();
  }
}

void RecvDma::receive(const Flit& f, Time arrival) {
  // Fast path: while a packet is being stored and nothing waits, a flit is consumed as it
  // arrives (costs no event). Heads always wait for their arrival instant, where the buffer
  // decision is made against the ring as the firmware has left it then.
  if (!f.head && state_ != State::Idle && fc_.empty() && !blocked_) {
    consume(f, arrival);
    last_consume_ = arrival;
    return;
  }
  fc_.push(f, arrival);
}

bool RecvDma::start_packet(Time at) {
  const bool have_ring = ctrl_ && size_ > 0 && bufsize_ > 0;
  if (have_ring) {
    const std::uint32_t idx = next_ % size_;
    const std::uint64_t da = std::uint64_t{ring_} + std::uint64_t{idx} * 8;
    if (da + 8 <= sram_.size()) {
      const std::uint8_t* d = sram_.data() + da;
      const std::uint32_t buf = get_be32(d), st = get_be32(d + 4);
      if ((st & r::kRxOwn) && std::uint64_t{buf} + bufsize_ <= sram_.size()) {
        state_ = State::Storing;
        idx_ = idx;
        buf_ = buf;
        cap_ = bufsize_;  // later register writes do not change a packet being stored
        desc_ = static_cast<std::uint32_t>(da);
        stored_ = count_ = npend_ = 0;
        trunc_ = false;
        crc_.start();
        fault_ = 0;
        flips_.clear();
        first_ = at;
        ++next_;
        state_sig_.change(at, 1);
        return true;
      }
    }
  }
  ++stats_.nobuf_events;
  raise_(r::kIrqRxNoBuf);
  if (ctrl_ && policy_ == 1) {
    state_ = State::Dropping;
    ++stats_.drops;
    state_sig_.change(at, 2);
    return true;
  }
  blocked_ = true;  // back-pressure: leave the flits in the slack buffer until a kick
  state_sig_.change(at, 3);
  return false;
}

void RecvDma::drain() {
  drain_ev_.fired();
  const Time now = now_ps();
  while (!fc_.empty() && !blocked_) {
    const auto& h = fc_.head();
    const Time cp = fc_.upstream() ? fc_.upstream()->timing().cp : 0;
    Time t = h.arrival;
    if (last_consume_ != kNever) t = std::max(t, last_consume_ + cp);
    if (now < t) { drain_ev_.at(t); return; }
    if (h.flit.head && state_ == State::Idle && !start_packet(now)) return;
    const Flit f = h.flit;
    fc_.pop(now);
    last_consume_ = now;
    consume(f, now);
  }
}

void RecvDma::consume(const Flit& f, Time at) {
  ++stats_.bytes;
  if (state_ == State::Dropping) {
    if (f.tail) {
      ends_.add(f.packet);
      state_ = State::Idle;
      state_sig_.change(at, 0);
    }
    return;
  }
  if (state_ != State::Storing) return;  // stray flit outside a packet: ignored
  if (f.fault) note_damage(f);
  // Each byte is stored once the next ones show it is not in the trailer.
  const std::uint32_t trailer = crc_bytes(crc_.kind);
  if (npend_ == trailer) {
    take(pend_[0]);
    for (std::uint32_t i = 1; i < npend_; ++i) pend_[i - 1] = pend_[i];
    --npend_;
  }
  ++count_;
  if (!f.tail) {
    pend_[npend_++] = f.data;
    return;
  }
  // The pending bytes and f.data are the trailer: the CRC of everything before it.
  ends_.add(f.packet);
  std::uint32_t status = stored_ & r::kRxLenMask;
  if (count_ < trailer + 1 || !trailer_ok(f.data)) status |= r::kRxCrcErr;
  if (trunc_) status |= r::kRxTrunc;
  if (fault_) probe_packet(status, f.packet, at);
  done_.push_back(Done{at, idx_, desc_, status, first_});
  done_ev_.notify(delay_to(at));
  state_ = State::Idle;
}

void RecvDma::take(std::uint8_t b) {
  if (stored_ < cap_) sram_.put8(buf_ + stored_++, b, SramWriter::kRecvDma);
  else trunc_ = true;
  crc_.add(b);
}

bool RecvDma::trailer_ok(std::uint8_t last) const {
  const std::uint32_t n = crc_bytes(crc_.kind);
  if (npend_ + 1 != n) return false;
  for (std::uint32_t i = 0; i + 1 < n; ++i)
    if (pend_[i] != crc_.trailer(i)) return false;
  return last == crc_.trailer(n - 1);
}

void RecvDma::note_damage(const Flit& f) {
  fault_ |= f.fault;
  if ((f.fault & kFlitFlipped) && flips_.size() < 16)
    flips_.emplace_back(count_, (f.fault & kFlitFlipMany) ? 0xFF : f.fault & kFlitFlipBitMask);
}

// A packet link faults damaged has ended here with `status`: counted, and kept if its CRC passed.
void RecvDma::probe_packet(std::uint32_t status, std::uint32_t packet, Time at) {
  ++stats_.damaged;
  if (status & r::kRxCrcErr) return;
  const bool lost = (fault_ & kFlitLost) != 0;
  ++(lost ? stats_.undetected_lost : stats_.undetected);
  if (undetected_.size() < kUndetectedKept) undetected_.push_back(Undetected{packet, at, stored_, lost, flips_});
}

void RecvDma::complete() {
  const Time now = now_ps();
  while (!done_.empty() && done_.front().at <= now) {
    const Done d = done_.front();
    done_.pop_front();
    sram_.put32(d.desc + 4, d.status, SramWriter::kRecvDma);  // the descriptor the packet took (checked in SRAM then)
    ++stats_.packets;
    ++filled_;
    if (d.status & r::kRxCrcErr) ++stats_.crc_errors;
    if (d.status & r::kRxTrunc) ++stats_.truncated;
    if (state_ == State::Idle) state_sig_.change(now, 0);
    if (observer_) observer_(d.idx, d.first, d.at, d.status & r::kRxLenMask, d.status);
    raise_(r::kIrqRxDone);
  }
  if (!done_.empty()) done_ev_.notify(delay_to(done_.front().at));
}

}  // namespace sanvp::nic
