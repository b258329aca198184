// The end-of-run packet conservation check (platform/sim/packet_audit.hpp): NIC packets are
// counted by id, wraps included; a lost or duplicated one is an error naming it; a NIC packet
// that reaches a test endpoint is refused, counted and accounted, never read as test traffic.
#include <catch2/catch.hpp>
#include <tlm_utils/simple_initiator_socket.h>
#include <string>

#include "fabric_fixture.hpp"
#include "hw/endpoint/packet.hpp"
#include "hw/nic/memory_map.hpp"
#include "hw/nic/send_dma.hpp"
#include "hw/base/error.hpp"
#include "platform/sim/packet_audit.hpp"

using namespace sanvp;
using namespace sanvp::test;

namespace {
std::string audit_error(const PacketAudit& a) {
  try {
    a.finish(0);
  } catch (const SimError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("PacketAudit: each NIC packet ended once, or is listed where it is") {
  PacketTable table;
  PacketAudit a(table);
  a.nic_source(3, 5);
  PacketEnds ends;
  for (std::uint32_t k = 0; k < 4; ++k) ends.add(nic_packet_id(3, k));
  a.ended(ends);
  a.found(nic_packet_id(3, 4), "sw1.p2.in buffer");
  const auto out = a.finish(0);
  REQUIRE(out.size() == 1);
  CHECK(out[0].packet == nic_packet_id(3, 4));
  CHECK(out[0].where == "sw1.p2.in buffer");
}

TEST_CASE("PacketAudit: a NIC packet that is nowhere is an error naming node and sequence") {
  PacketTable table;
  PacketAudit a(table);
  a.nic_source(3, 5);
  PacketEnds ends;
  for (std::uint32_t k : {0u, 1u, 3u, 4u}) ends.add(nic_packet_id(3, k));
  a.ended(ends);
  const std::string m = audit_error(a);
  CHECK(m.find("NIC packet n3#2 (id 0x80030002): sent 1 time(s), ended at a receiver 0 time(s), not in the network") != std::string::npos);
}

TEST_CASE("PacketAudit: a NIC packet that ended twice is an error") {
  PacketTable table;
  PacketAudit a(table);
  a.nic_source(0, 1);
  PacketEnds ends;
  ends.add(nic_packet_id(0, 0));
  ends.add(nic_packet_id(0, 0));
  a.ended(ends);
  CHECK(audit_error(a).find("NIC packet n0#0 (id 0x80000000): sent 1 time(s), ended at a receiver 2 time(s)") != std::string::npos);
}

TEST_CASE("PacketAudit: sequence numbers wrap after 65536 packets and each use is counted") {
  PacketTable table;
  const std::uint64_t sent = 65536 + 3;  // ids 0..2 used twice, 3..65535 once
  PacketEnds ends;
  for (std::uint64_t k = 0; k < sent; ++k) ends.add(nic_packet_id(7, k));
  {
    PacketAudit a(table);
    a.nic_source(7, sent);
    a.ended(ends);
    CHECK(a.finish(0).empty());
  }
  PacketAudit b(table);
  b.nic_source(7, sent + 1);  // the 65540th packet (id 3, second use) is missing
  b.ended(ends);
  CHECK(audit_error(b).find("NIC packet n7#3 (id 0x80070003): sent 2 time(s), ended at a receiver 1 time(s)") != std::string::npos);
}

TEST_CASE("PacketAudit: NIC ids never collide with the packet table or kNoPacket") {
  CHECK(nic_packet_id(kMaxNicNode, kNicSeqMask) != kNoPacket);
  CHECK(is_nic_packet(nic_packet_id(0, 0)));
  CHECK_FALSE(is_nic_packet(kNoPacket));
  CHECK_FALSE(is_nic_packet(0x7fffffffu));
  CHECK(nic_packet_node(nic_packet_id(1234, 99)) == 1234);
}

namespace {
struct CoreStub : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<CoreStub> socket{"socket"};
  explicit CoreStub(sc_core::sc_module_name n) : sc_module(n) {}
};
struct NullSink : FlitReceiver {
  void receive(const Flit&, Time) override {}
};

// Node 0 is a bare NIC send DMA; node 1 a test endpoint. The DMA sends one packet (40 bytes
// unless changed) to node 1 (route byte 1: the switch's port 1), which is not a test packet.
struct NicIntoEndpoint {
  ParamValues pv;
  Network net{pv, 1};
  nic::Sram sram{"sram", 4096};
  CoreStub core{"core"};
  nic::SendDma dma{"send", sram, [](std::uint32_t) {}, 0};
  NullSink sink;
  FlowControlConfig fc = FlowControlConfig::from_params(pv, "n0");
  NicIntoEndpoint() {
    core.socket.bind(sram.socket);
    net.add_switch(4);
    net.add_node(0, 0);
    net.add_node(0, 1);
    Network::ExternalNode x;
    x.attach_output = [this](LinkChannel* ch) { dma.attach_output(ch); };
    x.attach_input = [](LinkChannel*) {};
    x.output_control = dma.output_control();
    x.input = &sink;
    x.input_fc = &fc;
    net.set_external(0, x);
    net.build();
    std::uint8_t bytes[2000];
    bytes[0] = 1;  // route: switch port 1
    for (int i = 1; i < 2000; ++i) bytes[i] = static_cast<std::uint8_t>(i);
    sram.write(0, bytes, sizeof bytes);
  }
  std::uint32_t len = 40;
  void send() {
    namespace r = nic::map::nic;
    dma.reg_write(r::kSendAddr, 0);
    dma.reg_write(r::kSendLen, len);
    dma.reg_write(r::kSendRoute, 1);
    dma.reg_write(r::kSendCtrl, 1);
  }
  std::vector<PacketAudit::InFlight> audit() {
    PacketAudit a(net.packets());
    audit_network(net, now_ps(), a);
    a.nic_source(0, dma.packets_started());
    if (dma.flits_to_send()) a.found(dma.current_packet(), "n0 send DMA (sending)");
    return a.finish(now_ps());
  }
};

struct Once : sc_core::sc_module {
  std::function<void()> fn;
  SC_HAS_PROCESS(Once);
  Once(sc_core::sc_module_name n, std::function<void()> f) : sc_module(n), fn(std::move(f)) { SC_METHOD(go); }
  void go() { fn(); }
};
}  // namespace

TEST_CASE("PacketAudit: a NIC packet delivered to a test endpoint is refused, counted and accounted") {
  NicIntoEndpoint t;
  Once start("start", [&] { t.send(); });
  run_for(5 * kUs);
  CHECK(t.dma.stats().packets == 1);
  CHECK(t.net.node(1).stats().foreign_packets == 1);
  CHECK(t.net.node(1).stats().recv_packets == 0);
  CHECK(t.audit().empty());
}

TEST_CASE("PacketAudit: a NIC packet backed up by STOP, in buffers and at its DMA, is listed in flight once") {
  NicIntoEndpoint t;
  t.net.node(1).pause_receive(0, kNever);  // the endpoint never drains: the worm backs up
  t.len = 1000;                            // more than the endpoint's and the switch's slack buffers
  Once start("start", [&] { t.send(); });
  run_for(20 * kUs);
  CHECK(t.dma.flits_to_send());  // held by STOP
  CHECK(t.net.sw(0).input_buffer(0).entries().size() > 0);
  const auto out = t.audit();
  REQUIRE(out.size() == 1);
  CHECK(out[0].packet == nic_packet_id(0, 0));
  CHECK(out[0].where == "n1.in buffer");
}
