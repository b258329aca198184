// RecvDma: the link's receiving end in the NIC. Packets (type + payload + the link CRC,
// link_crc.hpp: CRC-8 or CRC-32; the switches consumed the route bytes) are written into receive buffers taken in ring order from
// 8-byte SRAM descriptors the firmware hands over (kRxOwn). The status word gets the stored
// length and CRC / truncation flags; kIrqRxDone is raised when the packet's last byte has
// arrived. With no free buffer the firmware-selected policy applies: back-pressure (the flits
// wait in the slack buffer, whose STOP/GO stalls the sender without loss) or drop (the packet
// is consumed and counted). Nothing outside a buffer is ever written.
// A probe with global knowledge counts the packets link faults damaged (the flits' fault marks,
// hw/link/flit.hpp) that passed the CRC: "undetected corruptions" (every flit arrived, some
// flipped: no length check can catch them either) and undetected losses (flits lost: a length
// check catches them), and keeps the first few with their flips for scoreboards.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>
#include <systemc>

#include "hw/link/packet_ends.hpp"
#include "hw/nic/irq.hpp"
#include "hw/nic/link_crc.hpp"
#include "hw/nic/nic_regs.hpp"
#include "hw/nic/register.hpp"
#include "hw/nic/sram.hpp"
#include "hw/link/flow_controller.hpp"
#include "hw/base/observer_list.hpp"
#include "hw/base/wakeup.hpp"

namespace sanvp::nic {

class RecvDma : public sc_core::sc_module, public FlitReceiver {
 public:
  struct Stats {
    std::uint64_t packets = 0, bytes = 0, drops = 0, crc_errors = 0, truncated = 0, nobuf_events = 0;
    // Probe (not registers): stored packets a link fault had damaged; of those, passed the CRC
    // with every flit there (undetected corruptions) or with flits lost (undetected losses).
    std::uint64_t damaged = 0, undetected = 0, undetected_lost = 0;
  };
  // A damaged packet the CRC passed: its id, when its last byte arrived, the bytes stored, whether
  // flits were lost, and its flips as (byte offset after the route bytes, bit; bit 0xFF: several).
  struct Undetected {
    std::uint32_t packet; Time at; std::uint32_t length; bool lost;
    std::vector<std::pair<std::uint32_t, std::uint8_t>> flips;
  };
  static constexpr std::size_t kUndetectedKept = 16;
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

  // Each call adds a subscriber (tests, timelines, measurements).
  void add_observer(Observer fn) { observer_.add(std::move(fn)); }
  void set_observer(Observer fn) { add_observer(std::move(fn)); }
  // The trailer every packet ends with (nic.link_crc; set before the run).
  void set_crc(LinkCrc c) { crc_.kind = c; }
  LinkCrc crc() const { return crc_.kind; }
  const Stats& stats() const { return stats_; }
  const std::vector<Undetected>& undetected() const { return undetected_; }  // the first kUndetectedKept
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
  void take(std::uint8_t b);                // a byte known to be before the trailer
  bool trailer_ok(std::uint8_t last) const;  // the trailer is the pending bytes and `last`
  void note_damage(const Flit& f);
  void probe_packet(std::uint32_t status, std::uint32_t packet, Time at);

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
  bool trunc_ = false;
  // The last bytes (up to the trailer's length) are held until the next flit shows they are
  // not the trailer.
  std::uint8_t pend_[4] = {};
  std::uint32_t npend_ = 0;
  LinkCrcState crc_;
  // Probe state of the packet being stored: its flits' fault marks, and its flips.
  std::uint8_t fault_ = 0;
  std::vector<std::pair<std::uint32_t, std::uint8_t>> flips_;
  std::vector<Undetected> undetected_;
  Time first_ = 0, last_consume_ = kNever;
  std::deque<Done> done_;
  Wakeup drain_ev_;            // several causes (hw/base/wakeup.hpp)
  sc_core::sc_event done_ev_;  // re-armed from the time-ordered done_ queue
  ObserverList<std::uint32_t, Time, Time, std::uint32_t, std::uint32_t> observer_;
  Stats stats_;
  PacketEnds ends_;
  TraceSignal state_sig_;
  RegisterBank<RecvDma> bank_{*this, kRegisters};
};

}  // namespace sanvp::nic
