// BarrierCore and its two wrappers: BTIN switch rules (paper Figure 4, Table 1), message and
// config formats, drops, concurrency, teardown and re-use, register exhaustion.
#include <catch2/catch.hpp>
#include <map>
#include <set>

#include "hw/barrier/barrier_core.hpp"
#include "hw/barrier/barrier_unit_tl.hpp"
#include "hw/barrier/packet_assembler.hpp"
#include "hw/barrier/wire_format.hpp"
#include "hw/base/error.hpp"

using namespace sanvp::barrier;

namespace {

std::uint64_t bits(std::initializer_list<int> ports) {
  std::uint64_t m = 0;
  for (int p : ports) m |= std::uint64_t{1} << p;
  return m;
}
std::uint16_t reduce(int gid, int data = 0) {
  return BarrierMessage{MsgType::Reduce, static_cast<std::uint8_t>(gid), static_cast<std::uint8_t>(data)}.encode();
}
std::uint16_t dist(int gid, int data = 0) {
  return BarrierMessage{MsgType::Distribute, static_cast<std::uint8_t>(gid), static_cast<std::uint8_t>(data)}.encode();
}
ConfigResponse alloc(BarrierCore& c, int gid, int parent, std::uint64_t cmask) {
  return c.configure({ConfigOp::Alloc, static_cast<std::uint8_t>(gid), static_cast<std::uint8_t>(parent), cmask});
}
ConfigResponse release(BarrierCore& c, int gid) {
  return c.configure({ConfigOp::Release, static_cast<std::uint8_t>(gid), 0, 0});
}
// Drains every port (all outputs ready) and returns port -> messages sent, in order.
std::map<int, std::vector<BarrierMessage>> drain(BarrierCore& c) {
  std::map<int, std::vector<BarrierMessage>> out;
  for (bool any = true; any;) {
    any = false;
    for (int p = 0; p < c.ports(); ++p) {
      if (auto m = c.offer(p)) {
        out[p].push_back(*m);
        c.take(p);
        any = true;
      }
    }
    c.fire();
  }
  return out;
}
std::set<int> ports_with_output(const BarrierCore& c) {
  std::set<int> s;
  for (int p = 0; p < c.ports(); ++p)
    if (c.offer(p)) s.insert(p);
  return s;
}

}  // namespace

TEST_CASE("message format is Figure 5: 2-bit type, 8-bit GID, 6-bit data") {
  const BarrierMessage m{MsgType::Distribute, 0xA5, 0x2B};
  CHECK(m.encode() == ((2u << 14) | (0xA5u << 6) | 0x2Bu));
  CHECK(BarrierMessage::decode(m.encode()) == m);
  for (unsigned raw = 0; raw < 65536; raw += 7)
    CHECK(BarrierMessage::decode(static_cast<std::uint16_t>(raw)).encode() == raw);
}

TEST_CASE("wire format: barrier packets carry a lead byte no route byte can have, and a CRC") {
  const BarrierMessage m{MsgType::Reduce, 17, 5};
  auto b = encode_message(m);
  REQUIRE(b.size() == kMessageFlits);
  CHECK(is_barrier_lead(b[0]));
  CHECK_FALSE(is_barrier_lead(63));  // any route byte (a port number)
  REQUIRE(decode_message(b));
  CHECK(*decode_message(b) == m);
  b[2] ^= 0x10;
  CHECK_FALSE(decode_message(b));

  const ConfigCommand c{ConfigOp::Alloc, 200, 5, 0x8000'0000'0000'0021ull};
  auto cb = encode_config(c);
  REQUIRE(cb.size() == kConfigFlits);
  auto dc = decode_config(cb);
  REQUIRE(dc);
  CHECK((dc->op == c.op && dc->gid == c.gid && dc->parent == c.parent && dc->cmask == c.cmask));
  cb[7] ^= 1;
  CHECK_FALSE(decode_config(cb));

  auto rb = encode_response({ConfigStatus::Full, 0}, 42);
  REQUIRE(rb.size() == kResponseFlits);
  auto dr = decode_response(rb);
  REQUIRE(dr);
  CHECK(dr->resp.status == ConfigStatus::Full);
  CHECK(dr->gid == 42);
  CHECK_FALSE(decode_message(rb));  // wrong lead byte
}

TEST_CASE("Table 1 leaf switch: merge local members, forward the last arrival to P, replicate DIST") {
  BarrierCore c(8, 4);
  // Parent switch on port 0, member nodes on ports 3 and 5.
  REQUIRE(alloc(c, 7, 0, bits({0, 3, 5})).status == ConfigStatus::Ok);
  CHECK_FALSE(c.arrive(5, reduce(7, 11)));
  CHECK(c.fire() == 0);
  CHECK(ports_with_output(c).empty());
  CHECK_FALSE(c.arrive(3, reduce(7, 22)));
  CHECK(c.fire() == 1);
  CHECK(ports_with_output(c) == std::set<int>{0});
  CHECK(*c.offer(0) == BarrierMessage{MsgType::Reduce, 7, 22});  // the lastly arriving message
  c.take(0);
  CHECK(c.reg(0).arrived == 0);
  CHECK_FALSE(c.arrive(0, dist(7, 33)));
  CHECK(ports_with_output(c) == std::set<int>{3, 5});
  auto out = drain(c);
  CHECK(out[3] == std::vector<BarrierMessage>{{MsgType::Distribute, 7, 33}});
  CHECK(out[5] == std::vector<BarrierMessage>{{MsgType::Distribute, 7, 33}});
  CHECK(out.count(0) == 0);
  CHECK(c.drops() == 0);
}

TEST_CASE("Table 1 intermediate switch: merge children switches and local members") {
  BarrierCore c(8, 4);
  // Parent on 7, child switches on 1 and 2, member node on 4; a non-member switch would have no 4.
  REQUIRE(alloc(c, 1, 7, bits({7, 1, 2, 4})).status == ConfigStatus::Ok);
  for (int p : {2, 4}) CHECK_FALSE(c.arrive(p, reduce(1)));
  c.fire();
  CHECK(ports_with_output(c).empty());
  CHECK_FALSE(c.arrive(1, reduce(1)));
  c.fire();
  CHECK(ports_with_output(c) == std::set<int>{7});
  drain(c);
  CHECK_FALSE(c.arrive(7, dist(1)));
  auto out = drain(c);
  CHECK(out.size() == 3);
  for (int p : {1, 2, 4}) CHECK(out[p].size() == 1);
}

TEST_CASE("Table 1 root switch: P is the root node, notify it, then replicate its DIST to the rest") {
  BarrierCore c(8, 4);
  // Figure 2's root switch 3: root node (3,4), another member on 6, children switches on 0, 1.
  REQUIRE(alloc(c, 9, 4, bits({4, 6, 0, 1})).status == ConfigStatus::Ok);
  for (int p : {0, 6, 1}) CHECK_FALSE(c.arrive(p, reduce(9)));
  c.fire();
  CHECK(ports_with_output(c) == std::set<int>{4});  // notification of the root node
  drain(c);
  // The root node sends no REDUCE itself: a REDUCE from P is a protocol error.
  CHECK(c.arrive(4, reduce(9)) == DropReason::NotChild);
  CHECK_FALSE(c.arrive(4, dist(9)));
  CHECK(ports_with_output(c) == std::set<int>{0, 1, 6});
}

TEST_CASE("protocol violations are dropped and counted, never forwarded") {
  BarrierCore c(8, 2);
  REQUIRE(alloc(c, 3, 0, bits({0, 1, 2})).status == ConfigStatus::Ok);
  CHECK(c.arrive(1, BarrierMessage{MsgType::None, 3, 0}.encode()) == DropReason::BadType);
  CHECK(c.arrive(1, BarrierMessage{MsgType::Reserved, 3, 0}.encode()) == DropReason::BadType);
  CHECK(c.arrive(1, reduce(4)) == DropReason::UnknownGid);
  CHECK(c.arrive(5, reduce(3)) == DropReason::NotChild);
  CHECK_FALSE(c.arrive(1, reduce(3)));
  CHECK(c.arrive(1, reduce(3)) == DropReason::Duplicate);
  CHECK(c.arrive(2, dist(3)) == DropReason::NotParent);
  CHECK_FALSE(c.arrive(0, dist(3)));  // pending to 1 and 2 now
  CHECK(c.arrive(0, dist(3)) == DropReason::Busy);
  CHECK(c.drops() == 7);
  CHECK(c.drops(DropReason::BadType) == 2);
  CHECK(c.drops(DropReason::Busy) == 1);
  CHECK_THROWS_AS(c.arrive(8, reduce(3)), sanvp::SimError);
}

TEST_CASE("register allocation: invalid setups, duplicates, exhaustion, release and re-use") {
  BarrierCore c(8, 3);
  CHECK(alloc(c, 1, 8, bits({0, 1})).status == ConfigStatus::Invalid);   // P out of range
  CHECK(alloc(c, 1, 2, bits({0, 1})).status == ConfigStatus::Invalid);   // P not in C
  CHECK(alloc(c, 1, 2, bits({2})).status == ConfigStatus::Invalid);      // no child
  CHECK(alloc(c, 1, 0, bits({0, 9})).status == ConfigStatus::Invalid);   // port beyond the switch
  CHECK(c.configure({ConfigOp::Nop, 1, 0, 3}).status == ConfigStatus::Invalid);
  CHECK(alloc(c, 10, 0, bits({0, 1})) == ConfigResponse{ConfigStatus::Ok, 0});
  CHECK(alloc(c, 11, 0, bits({0, 2})) == ConfigResponse{ConfigStatus::Ok, 1});
  CHECK(alloc(c, 10, 0, bits({0, 3})).status == ConfigStatus::Duplicate);
  CHECK(alloc(c, 12, 1, bits({1, 3})) == ConfigResponse{ConfigStatus::Ok, 2});
  CHECK(c.free_registers() == 0);
  CHECK(alloc(c, 13, 0, bits({0, 1})) == ConfigResponse{ConfigStatus::Full, 0});  // exhaustion
  CHECK(release(c, 99).status == ConfigStatus::NotFound);
  CHECK(release(c, 11) == ConfigResponse{ConfigStatus::Ok, 1});
  CHECK(c.busy_mask() == 0b101);
  CHECK(alloc(c, 13, 0, bits({0, 1})) == ConfigResponse{ConfigStatus::Ok, 1});  // lowest free
}

TEST_CASE("several concurrent barriers share ports, each output port serves registers round-robin") {
  BarrierCore c(8, 4);
  // Three groups whose parent is the same port 0, children overlapping.
  for (int g = 0; g < 3; ++g) REQUIRE(alloc(c, 20 + g, 0, bits({0, 1, 2, 3})).status == ConfigStatus::Ok);
  // Interleave arrivals: group 22 completes first, then 20, then 21.
  const int order[][2] = {{1, 20}, {1, 22}, {2, 22}, {2, 21}, {3, 22}, {3, 20}, {2, 20}, {1, 21}, {3, 21}};
  std::vector<int> fired_after;
  for (auto& a : order) {
    CHECK_FALSE(c.arrive(a[0], reduce(a[1], a[1] & 0x3f)));
    if (c.fire()) fired_after.push_back(a[1]);
  }
  CHECK(fired_after == std::vector<int>{22, 20, 21});
  // All three REDUCEs wait for port 0; round-robin from register 0.
  std::vector<int> sent;
  while (auto m = c.offer(0)) {
    sent.push_back(m->gid);
    c.take(0);
  }
  CHECK(sent == std::vector<int>{20, 21, 22});
  // Round-robin pointer of port 0 moved past register 2: a new DIST round from 20 and 22 on port 1
  for (int g : {20, 22}) CHECK_FALSE(c.arrive(0, dist(g)));
  CHECK(c.offer(1)->gid == 20);
  c.take(1);
  CHECK(c.offer(1)->gid == 22);
  c.take(1);
  CHECK(c.drops() == 0);
}

TEST_CASE("a register with pending outputs records arrivals but fires only after they drain") {
  BarrierCore c(8, 2);
  REQUIRE(alloc(c, 5, 0, bits({0, 1, 2})).status == ConfigStatus::Ok);
  CHECK_FALSE(c.arrive(0, dist(5)));
  c.take(1);  // port 2 is blocked by a long normal worm
  // Protocol-wise impossible, but the hardware must stay sane: arrivals from both children.
  CHECK_FALSE(c.arrive(1, reduce(5)));
  CHECK_FALSE(c.arrive(2, reduce(5)));
  CHECK(c.fire() == 0);
  CHECK(c.offer(2)->type == MsgType::Distribute);
  c.take(2);
  CHECK(c.fire() == 1);
  CHECK(*c.offer(0) == BarrierMessage{MsgType::Reduce, 5, 0});
}

TEST_CASE("teardown discards pending outputs, a re-used register starts clean") {
  BarrierCore c(8, 1);
  REQUIRE(alloc(c, 40, 0, bits({0, 1, 2})).status == ConfigStatus::Ok);
  CHECK_FALSE(c.arrive(1, reduce(40)));
  CHECK_FALSE(c.arrive(2, reduce(40)));
  c.fire();
  REQUIRE(c.offer(0));
  CHECK(release(c, 40).status == ConfigStatus::Ok);
  CHECK_FALSE(c.offer(0));
  CHECK(c.arrive(1, reduce(40)) == DropReason::UnknownGid);
  REQUIRE(alloc(c, 41, 3, bits({3, 1})) == ConfigResponse{ConfigStatus::Ok, 0});
  CHECK(c.reg(0).arrived == 0);
  CHECK(c.reg(0).pending == 0);
  CHECK_FALSE(c.arrive(1, reduce(41, 9)));
  c.fire();
  CHECK(*c.offer(3) == BarrierMessage{MsgType::Reduce, 41, 9});
}

TEST_CASE("many episodes of one barrier: every episode merges once and replicates once") {
  BarrierCore c(8, 2);
  REQUIRE(alloc(c, 2, 7, bits({7, 0, 1, 2, 3, 4, 5, 6})).status == ConfigStatus::Ok);
  for (int ep = 0; ep < 50; ++ep) {
    for (int p = 6; p >= 0; --p) {
      CHECK_FALSE(c.arrive(p, reduce(2, ep & 0x3f)));
      c.fire();
    }
    auto up = drain(c);
    REQUIRE(up[7].size() == 1);
    CHECK(up[7][0].data == (ep & 0x3f));
    CHECK_FALSE(c.arrive(7, dist(2, ep & 0x3f)));
    auto down = drain(c);
    CHECK(down.size() == 7);
  }
  CHECK(c.fired() == 50);
  CHECK(c.drops() == 0);
}

TEST_CASE("transaction-level wrapper announces outputs `delay` after the event, shares the rules") {
  BarrierUnitConfig cfg;
  cfg.registers = 2;
  cfg.delay = 7 * sanvp::kNs;
  BarrierUnitTl u(8, cfg);
  std::vector<std::pair<int, sanvp::Time>> ready;
  u.set_output_ready([&](int p, sanvp::Time at) { ready.emplace_back(p, at); });
  REQUIRE(u.configure({ConfigOp::Alloc, 1, 0, bits({0, 1, 2})}, 0).status == ConfigStatus::Ok);
  CHECK(u.configure({ConfigOp::Alloc, 2, 0, bits({0, 3})}, 0).status == ConfigStatus::Ok);
  CHECK(u.configure({ConfigOp::Alloc, 3, 0, bits({0, 3})}, 0).status == ConfigStatus::Full);
  CHECK_FALSE(u.receive(1, reduce(1), 100));
  CHECK(ready.empty());
  CHECK_FALSE(u.receive(2, reduce(1), 250));
  CHECK(ready == std::vector<std::pair<int, sanvp::Time>>{{0, 7250}});
  CHECK_FALSE(u.receive(3, reduce(2), 300));  // port 0 already announced: no second call yet
  CHECK(ready.size() == 1);
  u.take(0, 400);  // first message gone, the second one is announced
  CHECK(ready.back() == std::pair<int, sanvp::Time>{0, 7400});
  u.take(0, 500);
  CHECK(ready.size() == 2);
  CHECK(u.receive(5, reduce(1), 600) == DropReason::NotChild);
  CHECK_FALSE(u.receive(0, dist(1), 700));
  CHECK(ready.size() == 4);
  CHECK(u.peek(1)->type == MsgType::Distribute);
}

TEST_CASE("packet assembler: barrier packets whole from their lead byte, bad ones reported") {
  BarrierPacketAssembler a;
  auto feed = [&](const std::vector<std::uint8_t>& b, std::size_t tail_at) {
    std::optional<BarrierPacket> got;
    for (std::size_t i = 0; i < b.size(); ++i) {
      auto r = a.push(b[i], i == tail_at);
      if (r) {
        CHECK_FALSE(got);
        got = r;
      }
    }
    return got;
  };
  const BarrierMessage m{MsgType::Distribute, 3, 9};
  auto mb = encode_message(m);
  auto got = feed(mb, mb.size() - 1);
  REQUIRE(got);
  REQUIRE(std::holds_alternative<BarrierMessage>(*got));
  CHECK(std::get<BarrierMessage>(*got) == m);
  CHECK(a.idle());
  const ConfigCommand c{ConfigOp::Release, 8, 0, 0};
  auto cb = encode_config(c);
  got = feed(cb, cb.size() - 1);
  REQUIRE(got);
  REQUIRE(std::holds_alternative<ConfigCommand>(*got));
  CHECK(std::get<ConfigCommand>(*got).op == ConfigOp::Release);
  auto rb = encode_response({ConfigStatus::Ok, 2}, 8);
  got = feed(rb, rb.size() - 1);
  REQUIRE(got);
  CHECK(std::get<DecodedResponse>(*got).resp.reg == 2);
  // Corrupt CRC, early tail, missing tail.
  mb[1] ^= 0x40;
  got = feed(mb, mb.size() - 1);
  REQUIRE(got);
  CHECK(std::holds_alternative<BadBarrierPacket>(*got));
  mb[1] ^= 0x40;
  got = feed({mb[0], mb[1]}, 1);  // the worm ended after 2 flits
  REQUIRE(got);
  CHECK(std::holds_alternative<BadBarrierPacket>(*got));
  CHECK(std::get<BadBarrierPacket>(*got).bytes.size() == 2);
  BarrierPacketAssembler b;
  for (std::size_t i = 0; i + 1 < mb.size(); ++i) CHECK_FALSE(b.push(mb[i], false));
  auto last = b.push(mb.back(), false);  // whole but no end-of-packet mark
  REQUIRE(last);
  CHECK(std::holds_alternative<BadBarrierPacket>(*last));
  CHECK(BarrierPacketAssembler::length_for(0x05) == 0);
}
