// SendDma: streams a packet from SRAM into the outgoing link, one byte per character period,
// obeying STOP/GO, and appends the CRC-8 over everything after the route bytes. Exposes
// 'sending' and 'blocked by STOP' status and raises kIrqLinkStop / kIrqLinkGo at the instant a
// STOP or GO takes effect on the link (FBS firmware watches its packet being blocked), and
// kIrqSendDone when the last byte has left.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <systemc>

#include "hw/link/transmitter.hpp"
#include "hw/nic/irq.hpp"
#include "hw/nic/nic_regs.hpp"
#include "hw/nic/register.hpp"
#include "hw/nic/sram.hpp"
#include "hw/base/wakeup.hpp"

namespace sanvp::nic {

class SendDma : public sc_core::sc_module, public ControlReceiver {
 public:
  struct Stats { std::uint64_t packets = 0, bytes = 0, refused = 0, stops = 0, gos = 0; Time blocked = 0; };
  // Observer of each packet: (SRAM address, route bytes, first byte departs, last byte
  // departs, bytes on the wire incl. CRC). Called when the last byte has left.
  using Observer = std::function<void(std::uint32_t, std::uint32_t, Time, Time, std::uint32_t)>;

  SC_HAS_PROCESS(SendDma);
  // node: numbers the packets (nic_packet_id in hw/link/flit.hpp).
  SendDma(sc_core::sc_module_name name, Sram& sram, RaiseIrq raise, std::uint32_t node);

  void attach_output(LinkChannel* ch);
  ControlReceiver* output_control() { return this; }
  static const RegisterMap<SendDma> kRegisters;  // SEND_* (send_dma.cpp)
  RegisterWindow& registers() { return bank_; }
  bool reg_read(std::uint32_t off, std::uint32_t& value) { return bank_.reg_read(off, value); }
  bool reg_write(std::uint32_t off, std::uint32_t value) { return bank_.reg_write(off, value); }
  void control(bool stop, Time effective) override;

  bool sending() const { return busy_; }
  bool blocked(Time now) const { return busy_ && tx_.stopped_at(now); }
  // Fault injection for tests: XOR `mask` into byte `index` (counted from the first route
  // byte) of the next packet started, after its CRC has been computed.
  void corrupt_next(std::uint32_t index, std::uint8_t mask) { corrupt_armed_ = true; corrupt_index_ = index; corrupt_mask_ = mask; }
  void set_observer(Observer fn) { observer_ = std::move(fn); }
  const Stats& stats() const { return stats_; }
  nlohmann::json stats_json() const;  // what the NIC reports of this engine (Nic::stats_json)
  // For the end-of-run accounting: packets started (the one being sent included), its id, and
  // whether some of its flits have not left yet (once all have, they are downstream).
  std::uint64_t packets_started() const { return seq_ + (busy_ ? 1 : 0); }
  std::uint32_t current_packet() const { return nic_packet_id(node_, seq_); }
  bool flits_to_send() const { return busy_ && pos_ <= cur_len_; }
  void declare_traces();

 private:
  void transmit();
  void edges();
  void finished();
  void start(std::uint32_t ctrl);  // a write of SEND_CTRL
  std::uint32_t status() const;    // SEND_STATUS

  Sram& sram_;
  RaiseIrq raise_;
  LinkTransmitter tx_;
  std::uint32_t addr_ = 0, len_ = 0, route_ = 0;
  bool busy_ = false;
  std::uint32_t cur_addr_ = 0, cur_len_ = 0, cur_route_ = 0, pos_ = 0;
  std::uint8_t crc_ = 0;
  Time first_ = 0, last_ = 0;
  Time started_ = 0;  // when the current packet was started
  bool was_stopped_ = false;
  Time stop_began_ = 0;
  std::uint32_t node_;
  std::uint64_t seq_ = 0;  // packets finished
  bool corrupt_armed_ = false, corrupt_now_ = false;
  std::uint32_t corrupt_index_ = 0;
  std::uint8_t corrupt_mask_ = 0;
  std::deque<std::pair<Time, bool>> edges_;
  Wakeup xmit_ev_;                   // several causes (hw/base/wakeup.hpp)
  sc_core::sc_event edge_ev_, done_ev_;  // re-armed from their own time-ordered queues
  Observer observer_;
  Stats stats_;
  TraceSignal state_sig_;
  RegisterBank<SendDma> bank_{*this, kRegisters};
};

}  // namespace sanvp::nic
