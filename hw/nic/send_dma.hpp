// SendDma: streams a packet from SRAM into the outgoing link, one byte per character period,
// obeying STOP/GO, and appends the link CRC (link_crc.hpp: CRC-8, one byte, or CRC-32, four)
// over everything after the route bytes. Exposes
// 'sending' and 'blocked by STOP' status and raises kIrqLinkStop / kIrqLinkGo at the instant a
// STOP or GO takes effect on the link (FBS firmware watches its packet being blocked), and
// kIrqSendDone when the last byte has left.
//
// Besides the single-packet registers (SEND_ADDR .. SEND_CTRL) the engine serves a send queue: a
// ring of 32-byte descriptors in SRAM (SQ_RING/SQ_SIZE/SQ_HEAD/SQ_TAIL), sent back to back (the
// next packet's first byte one character period after the previous packet's last byte), each
// optionally timed: its first byte leaves exactly when the RTC reaches the descriptor's start
// value. It latches the RTC at every STOP and GO edge and counts the ticks a byte was held by
// STOP (docs/nic.md, "Send queue, timed sends and flow-control timestamps").
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <systemc>

#include "hw/link/transmitter.hpp"
#include "hw/nic/irq.hpp"
#include "hw/nic/link_crc.hpp"
#include "hw/nic/nic_regs.hpp"
#include "hw/nic/register.hpp"
#include "hw/nic/sram.hpp"
#include "hw/base/observer_list.hpp"
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
  // The NIC's RTC (timed descriptors, STOP/GO timestamps, blocked ticks). Without one the RTC
  // reads 0.
  void set_clock(NicRegs* regs) { clock_ = regs; }
  // The trailer appended to every packet (nic.link_crc; set before the run).
  void set_crc(LinkCrc c) { crc_.kind = c; }
  LinkCrc crc() const { return crc_.kind; }
  // The RTC was written (NicRegs::on_rtc_changed): a descriptor waiting for its start re-evaluates.
  void rtc_changed() { if (waiting_) xmit_ev_.now(); }
  // Observer of STOP/GO edges on the outgoing link: (stop, effective time), as they take effect.
  void add_edge_observer(std::function<void(bool, Time)> fn) { edge_observer_.add(std::move(fn)); }
  void set_edge_observer(std::function<void(bool, Time)> fn) { add_edge_observer(std::move(fn)); }
  ControlReceiver* output_control() { return this; }
  static const RegisterMap<SendDma> kRegisters;  // SEND_* (send_dma.cpp)
  RegisterWindow& registers() { return bank_; }
  bool reg_read(std::uint32_t off, std::uint32_t& value) { return bank_.reg_read(off, value); }
  bool reg_write(std::uint32_t off, std::uint32_t value) { return bank_.reg_write(off, value); }
  void control(bool stop, Time effective) override;

  bool sending() const { return busy(); }
  bool blocked(Time now) const { return busy() && tx_.stopped_at(now); }
  // Fault injection for tests: XOR `mask` into byte `index` (counted from the first route
  // byte) of the next packet started, after its CRC has been computed.
  void corrupt_next(std::uint32_t index, std::uint8_t mask) { corrupt_armed_ = true; corrupt_index_ = index; corrupt_mask_ = mask; }
  // Each call adds a subscriber (tests, timelines, measurements).
  void add_observer(Observer fn) { observer_.add(std::move(fn)); }
  void set_observer(Observer fn) { add_observer(std::move(fn)); }
  const Stats& stats() const { return stats_; }
  nlohmann::json stats_json() const;  // what the NIC reports of this engine (Nic::stats_json)
  // For the end-of-run accounting: packets started (the one being sent included), its id, and
  // whether some of its flits have not left yet (once all have, they are downstream).
  std::uint64_t packets_started() const { return started_count_; }
  std::uint32_t current_packet() const { return nic_packet_id(node_, cur_seq_); }
  bool flits_to_send() const { return feeding_ && !waiting_ && pos_ < cur_len_ + crc_bytes(crc_.kind); }
  void declare_traces();

 private:
  void transmit();
  void edges();
  void finished();
  void start(std::uint32_t ctrl);  // a write of SEND_CTRL
  std::uint32_t status() const;    // SEND_STATUS
  std::uint32_t sq_status() const;  // SQ_STATUS
  bool busy() const { return feeding_ || !done_.empty(); }
  std::uint64_t rtc_at(Time t) const { return clock_ ? clock_->rtc(t) : 0; }
  std::uint64_t osc_at(Time t) const { return clock_ ? clock_->osc_ticks(t) : 0; }
  void begin_packet(Time ready);  // cur_* set: the packet gets its id and may leave from `ready`
  bool take_descriptor(Time now);  // the next queued descriptor, if any: true = feeding
  void refuse_descriptor(Time now, std::uint32_t status_bits);
  bool bad_packet(std::uint32_t addr, std::uint32_t len, std::uint32_t route) const;
  std::uint32_t blocked_ticks() const;  // SEND_BLOCKED

  Sram& sram_;
  RaiseIrq raise_;
  LinkTransmitter tx_;
  NicRegs* clock_ = nullptr;
  std::uint32_t addr_ = 0, len_ = 0, route_ = 0;
  bool feeding_ = false;  // a packet (cur_*) is being put on the link or waits for its start time
  std::uint32_t cur_addr_ = 0, cur_len_ = 0, cur_route_ = 0, pos_ = 0;
  std::uint64_t cur_seq_ = 0;      // sequence number of the packet being fed (its id)
  std::uint64_t started_count_ = 0;  // packets started (ids handed out)
  LinkCrcState crc_;
  Time first_ = 0;
  Time started_ = 0;  // when the current packet was started (ready to leave)
  bool was_stopped_ = false;
  Time stop_began_ = 0;
  std::uint32_t node_;
  std::uint64_t seq_ = 0;  // packets finished
  // Packets whose flits have all been handed to the link, completing at their last byte's
  // departure (in order), and refused queue descriptors completing in turn.
  struct Done {
    Time last; std::uint32_t addr, route, wire; Time first;
    bool queued, refused; std::uint32_t desc, ctrl, desc_status; std::uint64_t sent_rtc;
  };
  std::deque<Done> done_;
  // Send queue.
  std::uint32_t sq_ring_ = 0, sq_size_ = 0, sq_head_ = 0, sq_tail_ = 0;
  std::uint32_t sq_taken_ = 0;  // descriptors taken by the engine (sq_tail_ <= taken <= head)
  std::uint32_t sq_refused_ = 0;
  bool cur_queued_ = false;  // the packet being fed came from the queue
  std::uint32_t cur_desc_ = 0, cur_desc_status_ = 0, cur_ctrl_ = 0;
  bool waiting_ = false;     // a timed descriptor waits for the RTC to reach cur_start_
  std::uint64_t cur_start_ = 0;
  std::uint64_t cur_sent_rtc_ = 0;  // RTC when the queued packet's first byte left
  // Flow-control timestamps and sticky flags.
  std::uint64_t stop_rtc_ = 0, go_rtc_ = 0;
  std::uint32_t stop_hi_latch_ = 0, go_hi_latch_ = 0;
  std::uint32_t flags_ = 0;
  std::uint64_t blocked_ticks_ = 0;
  ObserverList<bool, Time> edge_observer_;
  bool corrupt_armed_ = false, corrupt_now_ = false;
  std::uint32_t corrupt_index_ = 0;
  std::uint8_t corrupt_mask_ = 0;
  std::deque<std::pair<Time, bool>> edges_;
  Wakeup xmit_ev_;                   // several causes (hw/base/wakeup.hpp)
  sc_core::sc_event edge_ev_, done_ev_;  // re-armed from their own time-ordered queues
  ObserverList<std::uint32_t, std::uint32_t, Time, Time, std::uint32_t> observer_;
  Stats stats_;
  TraceSignal state_sig_;
  RegisterBank<SendDma> bank_{*this, kRegisters};
};

}  // namespace sanvp::nic
