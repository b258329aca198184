// RecvDma: the link's receiving end in the NIC. Packets (type + payload + CRC-8; the switches
// consumed the route bytes) are written into receive buffers taken in ring order from
// 8-byte SRAM descriptors the firmware hands over (kRxOwn). The status word gets the stored
// length and CRC / truncation flags; kIrqRxDone is raised when the packet's last byte has
// arrived. With no free buffer the firmware-selected policy applies: back-pressure (the flits
// wait in the slack buffer, whose STOP/GO stalls the sender without loss) or drop (the packet
// is consumed and counted). Nothing outside a buffer is ever written.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <systemc>

#include "hw/link/packet_ends.hpp"
#include "hw/nic/irq.hpp"
#include "hw/nic/nic_regs.hpp"
#include "hw/nic/register.hpp"
#include "hw/nic/sram.hpp"
#include "hw/link/flow_controller.hpp"
#include "hw/base/wakeup.hpp"

namespace sanvp::nic {

class RecvDma : public sc_core::sc_module, public FlitReceiver {
 public:
  struct Stats { std::uint64_t packets = 0, bytes = 0, drops = 0, crc_errors = 0, truncated = 0, nobuf_events = 0; };
  // Observer of each stored packet: (descriptor index, first byte arrived, last byte arrived, length, status).
  using Observer = std::function<void(std::uint32_t, Time, Time, std::uint32_t, std::uint32_t)>;

  SC_HAS_PROCESS(RecvDma);
  RecvDma(sc_core::sc_module_name name, Sram& sram, RaiseIrq raise, const FlowControlConfig& fc);

  void attach_input(LinkChannel* ch) { fc_.set_upstream(ch); }
  FlowController& input_buffer() { return fc_; }
  static const RegisterMap<RecvDma> kRegisters;  // RX_* (recv_dma.cpp)
  RegisterWindow& registers() { return bank_; }
  bool reg_read(std::uint32_t off, std::uint32_t& value) { return bank_.reg_read(off, value); }
  bool reg_write(std::uint32_t off, std::uint32_t value) { return bank_.reg_write(off, value); }
  void receive(const Flit& f, Time arrival) override;

  void set_observer(Observer fn) { observer_ = std::move(fn); }
  const Stats& stats() const { return stats_; }
  nlohmann::json stats_json() const;  // what the NIC reports of this engine (Nic::stats_json)
  bool waiting_for_buffer() const { return blocked_; }
  const PacketEnds& ends() const { return ends_; }  // packets stored or dropped here
  void declare_traces();

 private:
  enum class State { Idle, Storing, Dropping };
  struct Done { Time at; std::uint32_t idx, desc, status; Time first; };
  void drain();
  void complete();
  bool start_packet(Time at);          // decides the buffer for a new packet (false: blocked)
  void consume(const Flit& f, Time at);
  void kick();

  Sram& sram_;
  RaiseIrq raise_;
  FlowController fc_;
  std::uint32_t ring_ = 0, size_ = 0, bufsize_ = 0, policy_ = 0, ctrl_ = 0;
  std::uint32_t next_ = 0;    // descriptors taken for packets (the next one to fill is next_ % size)
  std::uint32_t filled_ = 0;  // descriptors completed: what RX_TAIL shows
  State state_ = State::Idle;
  bool blocked_ = false;
  std::uint32_t idx_ = 0, buf_ = 0, cap_ = 0, stored_ = 0, count_ = 0;  // cap_: this packet's buffer size
  std::uint32_t desc_ = 0;  // SRAM address of this packet's descriptor
  bool have_pending_ = false, trunc_ = false;
  std::uint8_t pending_ = 0, crc_ = 0;
  Time first_ = 0, last_consume_ = kNever;
  std::deque<Done> done_;
  Wakeup drain_ev_;            // several causes (hw/base/wakeup.hpp)
  sc_core::sc_event done_ev_;  // re-armed from the time-ordered done_ queue
  Observer observer_;
  Stats stats_;
  PacketEnds ends_;
  TraceSignal state_sig_;
  RegisterBank<RecvDma> bank_{*this, kRegisters};
};

}  // namespace sanvp::nic
