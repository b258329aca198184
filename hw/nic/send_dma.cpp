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
    if (!busy_ || pos_ > cur_len_) return {};
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
    const bool stop = edges_.front().second;
    edges_.pop_front();
    if (stop) ++stats_.stops;
    else ++stats_.gos;
    raise_(stop ? r::kIrqLinkStop : r::kIrqLinkGo);
    if (busy_) state_sig_.change(now, stop ? 2 : 1);
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
    {r::kSendCtrl, "SEND_CTRL", Access::W, 0, "bit 0: start (refused and counted while busy, empty, outside SRAM or unconnected)",
     nullptr, [](SendDma& m, std::uint32_t v) { m.start(v); }},
    {r::kSendStatus, "SEND_STATUS", Access::R, 0, "bit 0 sending, bit 1 blocked by STOP now, bit 2 a start was refused; bits 31..16 packets sent",
     [](SendDma& m) { return m.status(); }},
}};

std::uint32_t SendDma::status() const {
  const Time now = now_ps();
  return (busy_ ? 1u : 0u) | (blocked(now) ? 2u : 0u) | (stats_.refused ? 4u : 0u) |
         (static_cast<std::uint32_t>(stats_.packets & 0xFFFF) << 16);
}

void SendDma::start(std::uint32_t v) {
  if (!(v & 1u)) return;
  // A start while busy, of an empty packet, outside SRAM or with more route bytes than
  // bytes is refused and counted (status bit 2): the engine never reads outside SRAM.
  if (busy_ || len_ == 0 || route_ >= len_ || std::uint64_t{addr_} + len_ > sram_.size() || !tx_.connected()) {
    ++stats_.refused;
    return;
  }
  busy_ = true;
  cur_addr_ = addr_;
  cur_len_ = len_;
  cur_route_ = route_;
  pos_ = 0;
  crc_ = 0;
  corrupt_now_ = corrupt_armed_;
  corrupt_armed_ = false;
  started_ = now_ps();
  state_sig_.change(started_, 1);
  xmit_ev_.now();
  tx_.work_at(started_);
}

nlohmann::json SendDma::stats_json() const {
  return {{"packets_sent", stats_.packets}, {"bytes_sent", stats_.bytes}, {"send_blocked_ps", stats_.blocked}};
}

void SendDma::transmit() {
  xmit_ev_.fired();
  if (!busy_) return;
  const Time now = now_ps();
  // Same lookahead as the test endpoint: a STOP not yet received cannot act before now + ld,
  // so flits departing before then are sent in this activation with their exact times.
  const Time horizon = now + tx_.channel()->timing().ld;
  const std::uint32_t wire = cur_len_ + 1;  // + CRC
  while (pos_ < wire) {
    const Time t = std::max(now, tx_.next_slot(now));
    if (t > now && t >= horizon) { xmit_ev_.at(t); return; }
    if (tx_.stopped(t)) {
      if (t > now) { xmit_ev_.at(t); return; }
      if (!was_stopped_) { was_stopped_ = true; stop_began_ = now; }
      return;  // GO wakes us
    }
    if (was_stopped_) { stats_.blocked += t - stop_began_; was_stopped_ = false; }
    Flit f;
    f.packet = current_packet();
    f.head = pos_ == 0;
    f.tail = pos_ + 1 == wire;
    std::uint8_t b = pos_ < cur_len_ ? sram_.data()[cur_addr_ + pos_] : crc_;
    if (pos_ < cur_len_ && pos_ >= cur_route_) crc_ = crc8_update(crc_, b);
    if (corrupt_now_ && pos_ == corrupt_index_) b ^= corrupt_mask_;
    f.data = b;
    if (pos_ == 0) first_ = t;
    tx_.send(f, t);
    ++pos_;
    ++stats_.bytes;
    if (f.tail) {
      last_ = t;
      done_ev_.notify(delay_to(t));
    }
  }
}

void SendDma::finished() {
  // The last byte has left: the engine is free (at the instant of the tail's departure).
  busy_ = false;
  ++stats_.packets;
  ++seq_;
  state_sig_.change(now_ps(), 0);
  if (observer_) observer_(cur_addr_, cur_route_, first_, last_, cur_len_ + 1);
  raise_(r::kIrqSendDone);
}

}  // namespace sanvp::nic
