#include "hw/nic/send_dma.hpp"
#include "hw/base/sim_time.hpp"

#include "hw/nic/memory_map.hpp"

namespace sanvp::nic {

namespace r = map::nic;

SendDma::SendDma(sc_core::sc_module_name name, Sram& sram, RaiseIrq raise, std::uint32_t node)
    : sc_module(name), sram_(sram), raise_(std::move(raise)), node_(node) {
  SC_METHOD(transmit);
  sensitive << xmit_ev_.event();
  dont_initialize();
  SC_METHOD(edges);
  sensitive << edge_ev_;
  dont_initialize();
  SC_METHOD(finished);
  sensitive << done_ev_;
  dont_initialize();
}

void SendDma::declare_traces() {
  // 0 idle, 1 sending, 2 blocked by STOP
  state_sig_.declare(name(), "state", 2);
}

void SendDma::attach_output(LinkChannel* ch) {
  tx_.attach(ch, [this](Time eff) { xmit_ev_.at(eff); });
  tx_.set_work([this]() -> LinkTransmitter::Work {  // for the work-conservation monitor
    if (!flits_to_send()) return {};
    return {started_, current_packet()};
  });
}

void SendDma::control(bool stop, Time effective) {
  tx_.control(stop, effective);
  edges_.emplace_back(effective, stop);
  edge_ev_.notify(delay_to(effective));
}

void SendDma::edges() {
  const Time now = now_ps();
  while (!edges_.empty() && edges_.front().first <= now) {
    const auto [eff, stop] = edges_.front();
    edges_.pop_front();
    if (stop) {
      ++stats_.stops;
      stop_rtc_ = rtc_at(eff);
    } else {
      ++stats_.gos;
      go_rtc_ = rtc_at(eff);
    }
    if (edge_observer_) edge_observer_(stop, eff);
    raise_(stop ? r::kIrqLinkStop : r::kIrqLinkGo);
    if (busy()) state_sig_.change(now, stop ? 2 : 1);
  }
  if (!edges_.empty()) edge_ev_.notify(delay_to(edges_.front().first));
}

const RegisterMap<SendDma> SendDma::kRegisters{"send", map::kNicRegBase, {
    {r::kSendAddr, "SEND_ADDR", Access::RW, 0, "SRAM address of the packet (route bytes first)",
     [](SendDma& m) { return m.addr_; }, [](SendDma& m, std::uint32_t v) { m.addr_ = v; }},
    {r::kSendLen, "SEND_LEN", Access::RW, 0, "bytes to send from SRAM (route + type + payload; the CRC is appended)",
     [](SendDma& m) { return m.len_; }, [](SendDma& m, std::uint32_t v) { m.len_ = v; }},
    {r::kSendRoute, "SEND_ROUTE", Access::RW, 0, "how many leading bytes are route bytes (not in the CRC)",
     [](SendDma& m) { return m.route_; }, [](SendDma& m, std::uint32_t v) { m.route_ = v; }},
    {r::kSendCtrl, "SEND_CTRL", Access::W, 0, "bit 0: start (refused and counted while busy or the queue is active, empty, outside SRAM or unconnected)",
     nullptr, [](SendDma& m, std::uint32_t v) { m.start(v); }},
    {r::kSendStatus, "SEND_STATUS", Access::R, 0, "bit 0 sending, bit 1 blocked by STOP now, bit 2 a start was refused; bits 31..16 packets sent",
     [](SendDma& m) { return m.status(); }},
    {r::kSendStopLo, "SEND_STOP_LO", Access::R, 0, "RTC at the last STOP edge on the outgoing link (when kIrqLinkStop is raised), low word; a read latches SEND_STOP_HI",
     [](SendDma& m) { m.stop_hi_latch_ = static_cast<std::uint32_t>(m.stop_rtc_ >> 32); return static_cast<std::uint32_t>(m.stop_rtc_); }},
    {r::kSendStopHi, "SEND_STOP_HI", Access::R, 0, "high word latched by the last SEND_STOP_LO read",
     [](SendDma& m) { return m.stop_hi_latch_; }},
    {r::kSendGoLo, "SEND_GO_LO", Access::R, 0, "RTC at the last GO edge on the outgoing link (when kIrqLinkGo is raised), low word; a read latches SEND_GO_HI",
     [](SendDma& m) { m.go_hi_latch_ = static_cast<std::uint32_t>(m.go_rtc_ >> 32); return static_cast<std::uint32_t>(m.go_rtc_); }},
    {r::kSendGoHi, "SEND_GO_HI", Access::R, 0, "high word latched by the last SEND_GO_LO read",
     [](SendDma& m) { return m.go_hi_latch_; }},
    {r::kSendFlags, "SEND_FLAGS", Access::W1C, 0, "sticky: bit 0 a byte was held by STOP, bit 1 a start was refused, bit 2 a timed descriptor started late; write 1 to clear",
     [](SendDma& m) { return m.flags_; }, [](SendDma& m, std::uint32_t v) { m.flags_ &= ~v; }},
    {r::kSendBlocked, "SEND_BLOCKED", Access::R, 0, "oscillator ticks packet bytes have been held by STOP in total (a STOP in force counts up to now), mod 2^32",
     [](SendDma& m) { return m.blocked_ticks(); }},
    {r::kSqRing, "SQ_RING", Access::RW, 0, "SRAM address of the send queue's ring of 32-byte descriptors (32-byte aligned: low bits ignored)",
     [](SendDma& m) { return m.sq_ring_; }, [](SendDma& m, std::uint32_t v) { m.sq_ring_ = v & ~31u; }},
    {r::kSqSize, "SQ_SIZE", Access::RW, 0, "send queue entries (0 = no queue; larger than 4096 means 4096); change only while the queue is idle",
     [](SendDma& m) { return m.sq_size_; }, [](SendDma& m, std::uint32_t v) { m.sq_size_ = std::min<std::uint32_t>(v, 4096); }},
    {r::kSqHead, "SQ_HEAD", Access::RW, 0, "send queue producer index (firmware), mod 2^32; a write rings the doorbell",
     [](SendDma& m) { return m.sq_head_; }, [](SendDma& m, std::uint32_t v) { m.sq_head_ = v; m.xmit_ev_.now(); }},
    {r::kSqTail, "SQ_TAIL", Access::R, 0, "send queue descriptors completed (last byte left, or refused), mod 2^32",
     [](SendDma& m) { return m.sq_tail_; }},
    {r::kSqStatus, "SQ_STATUS", Access::R, 0, "bit 0 descriptors posted and not completed, bit 1 waiting for a start time; bits 31..16 descriptors refused (mod 2^16)",
     [](SendDma& m) { return m.sq_status(); }},
}};

std::uint32_t SendDma::status() const {
  const Time now = now_ps();
  return (busy() ? 1u : 0u) | (blocked(now) ? 2u : 0u) | (stats_.refused ? 4u : 0u) |
         (static_cast<std::uint32_t>(stats_.packets & 0xFFFF) << 16);
}

std::uint32_t SendDma::sq_status() const {
  return (sq_head_ != sq_tail_ ? 1u : 0u) | (waiting_ ? 2u : 0u) | ((sq_refused_ & 0xFFFFu) << 16);
}

std::uint32_t SendDma::blocked_ticks() const {
  std::uint64_t n = blocked_ticks_;
  if (was_stopped_) n += osc_at(now_ps()) - osc_at(stop_began_);
  return static_cast<std::uint32_t>(n);
}

bool SendDma::bad_packet(std::uint32_t addr, std::uint32_t len, std::uint32_t route) const {
  return len == 0 || route >= len || std::uint64_t{addr} + len > sram_.size() || !tx_.connected();
}

void SendDma::start(std::uint32_t v) {
  if (!(v & 1u)) return;
  // A start while busy (or while the queue has work), of an empty packet, outside SRAM or with
  // more route bytes than bytes is refused and counted (status bit 2, SEND_FLAGS bit 1): the
  // engine never reads outside SRAM.
  if (busy() || (sq_size_ != 0 && sq_taken_ != sq_head_) || bad_packet(addr_, len_, route_)) {
    ++stats_.refused;
    flags_ |= r::kSendRefused;
    return;
  }
  feeding_ = true;
  cur_queued_ = false;
  cur_addr_ = addr_;
  cur_len_ = len_;
  cur_route_ = route_;
  begin_packet(now_ps());
  xmit_ev_.now();
  tx_.work_at(started_);
}

void SendDma::begin_packet(Time ready) {
  cur_seq_ = started_count_++;
  pos_ = 0;
  crc_.start();
  corrupt_now_ = corrupt_armed_;
  corrupt_armed_ = false;
  started_ = ready;
  state_sig_.change(started_, 1);
}

// Takes queued descriptors until one can be sent (true: feeding, possibly waiting for its start
// time) or none is left; refused descriptors complete in order with the refused bit.
bool SendDma::take_descriptor(Time now) {
  while (sq_size_ != 0 && sq_taken_ != sq_head_) {
    const std::uint32_t idx = sq_taken_ % sq_size_;
    const std::uint64_t da = std::uint64_t{sq_ring_} + std::uint64_t{idx} * r::kSendDescSize;
    ++sq_taken_;
    cur_queued_ = true;
    cur_desc_status_ = 0;
    if (da + r::kSendDescSize > sram_.size()) {  // the ring itself is outside SRAM: nothing to write back
      cur_desc_ = ~0u;
      cur_ctrl_ = 0;
      refuse_descriptor(now, 0);
      continue;
    }
    const std::uint8_t* d = sram_.data() + da;
    cur_desc_ = static_cast<std::uint32_t>(da);
    cur_addr_ = get_be32(d);
    cur_len_ = get_be32(d + 4);
    cur_ctrl_ = get_be32(d + 8);
    cur_route_ = cur_ctrl_ & r::kSendDescRouteMask;
    if (bad_packet(cur_addr_, cur_len_, cur_route_)) {
      refuse_descriptor(now, 0);
      continue;
    }
    feeding_ = true;
    if (cur_ctrl_ & r::kSendDescTimed) {
      waiting_ = true;
      cur_start_ = (std::uint64_t{get_be32(d + 16)} << 32) | get_be32(d + 20);
    } else {
      begin_packet(now);
      tx_.work_at(started_);
    }
    return true;
  }
  return false;
}

void SendDma::refuse_descriptor(Time now, std::uint32_t status_bits) {
  feeding_ = false;
  waiting_ = false;
  ++stats_.refused;
  ++sq_refused_;
  flags_ |= r::kSendRefused;
  // Completes in order: after every packet before it has left.
  const Time at = done_.empty() ? now : std::max(now, done_.back().last);
  done_.push_back(Done{at, cur_addr_, cur_route_, 0, 0, true, true, cur_desc_, cur_ctrl_,
                       status_bits | r::kSendDescRefused, 0});
  done_ev_.notify(delay_to(at));
}

nlohmann::json SendDma::stats_json() const {
  return {{"packets_sent", stats_.packets}, {"bytes_sent", stats_.bytes}, {"send_blocked_ps", stats_.blocked}};
}

void SendDma::transmit() {
  xmit_ev_.fired();
  const Time now = now_ps();
  while (true) {
    if (!feeding_ && !take_descriptor(now)) return;
    if (waiting_) {
      // A timed descriptor: its first byte leaves at the instant the RTC reaches the start value,
      // if the link can take a byte then (one cp after the previous packet's last byte).
      const Time tau = clock_ ? clock_->rtc_instant(cur_start_) : 0;
      const Time slot = tx_.next_slot(now);
      if (tau > now && tau >= slot) { xmit_ev_.at(tau); return; }
      if (tau < slot) {  // too late for the start value
        if (!(cur_ctrl_ & r::kSendDescLateOk)) { refuse_descriptor(now, 0); continue; }
        flags_ |= r::kSendLate;
        cur_desc_status_ |= r::kSendDescLate;
      }
      waiting_ = false;
      begin_packet(now);
      tx_.work_at(started_);
      if (clock_) clock_->trace_rtc(now);
    }
    // Same lookahead as the test endpoint: a STOP not yet received cannot act before now + ld,
    // so flits departing before then are sent in this activation with their exact times.
    const Time horizon = now + tx_.channel()->timing().ld;
    const std::uint32_t wire = cur_len_ + crc_bytes(crc_.kind);  // + the CRC trailer
    while (pos_ < wire) {
      const Time t = std::max(now, tx_.next_slot(now));
      if (t > now && t >= horizon) { xmit_ev_.at(t); return; }
      if (tx_.stopped(t)) {
        if (t > now) { xmit_ev_.at(t); return; }
        if (!was_stopped_) {
          was_stopped_ = true;
          stop_began_ = now;
          flags_ |= r::kSendWasBlocked;
        }
        return;  // GO wakes us
      }
      if (was_stopped_) {
        stats_.blocked += t - stop_began_;
        blocked_ticks_ += osc_at(t) - osc_at(stop_began_);
        was_stopped_ = false;
      }
      Flit f;
      f.packet = current_packet();
      f.head = pos_ == 0;
      f.tail = pos_ + 1 == wire;
      std::uint8_t b = pos_ < cur_len_ ? sram_.data()[cur_addr_ + pos_] : crc_.trailer(pos_ - cur_len_);
      if (pos_ < cur_len_ && pos_ >= cur_route_) crc_.add(b);
      if (corrupt_now_ && pos_ == corrupt_index_) b ^= corrupt_mask_;
      f.data = b;
      if (pos_ == 0) {
        first_ = t;
        if (cur_queued_) cur_sent_rtc_ = rtc_at(t);
      }
      tx_.send(f, t);
      ++pos_;
      ++stats_.bytes;
      if (f.tail) {
        feeding_ = false;
        done_.push_back(Done{t, cur_addr_, cur_route_, wire, first_, cur_queued_, false, cur_desc_, cur_ctrl_,
                             cur_desc_status_, cur_queued_ ? cur_sent_rtc_ : 0});
        done_ev_.notify(delay_to(t));
      }
    }
  }
}

void SendDma::finished() {
  // Packets whose last byte has left complete (at the instant of the tail's departure), and
  // refused descriptors in their turn.
  const Time now = now_ps();
  while (!done_.empty() && done_.front().last <= now) {
    const Done d = done_.front();
    done_.pop_front();
    if (!d.refused) {
      ++stats_.packets;
      ++seq_;
      if (!busy()) state_sig_.change(now, 0);
      if (observer_) observer_(d.addr, d.route, d.first, d.last, d.wire);
    }
    if (d.queued) {
      if (d.desc != ~0u) {
        sram_.put32(d.desc + 12, d.desc_status | r::kSendDescDone, SramWriter::kSendDma);
        sram_.put32(d.desc + 24, static_cast<std::uint32_t>(d.sent_rtc >> 32), SramWriter::kSendDma);
        sram_.put32(d.desc + 28, static_cast<std::uint32_t>(d.sent_rtc), SramWriter::kSendDma);
      }
      ++sq_tail_;
      if ((d.ctrl & r::kSendDescIrq) || sq_tail_ == sq_head_) raise_(r::kIrqSendQueue);
    }
    if (!d.refused) raise_(r::kIrqSendDone);
  }
  if (!done_.empty()) done_ev_.notify(delay_to(done_.front().last));
}

}  // namespace sanvp::nic
