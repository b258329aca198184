// Host interface of Figure 2 (SendReg, SendCmplQueue with its free-list pointer, RecvQueue,
// RecvCmplReg, NIC free list) and the bulk prefetch policy that keeps a blocked target from
// filling the NIC send buffers.
#include <catch2/catch.hpp>
#include <systemc>

#include "hw/clint/bulk_channel.hpp"
#include "hw/clint/host_interface.hpp"
#include "hw/base/error.hpp"

using namespace sanvp;
using namespace sanvp::clint;

TEST_CASE("SendCmplQueue doubles as the host's free list and never overflows", "[hostif]") {
  HostInterface hif(4, 2);
  std::vector<int> got;
  for (int k = 0; k < 4; ++k) got.push_back(*hif.host_alloc_send());
  CHECK(got == std::vector<int>{0, 1, 2, 3});
  CHECK_FALSE(hif.host_alloc_send().has_value());
  hif.nic_complete_send(2, false);  // completions in any order
  hif.nic_complete_send(0, true);
  auto c = hif.host_poll_send_completions();
  REQUIRE(c.size() == 2);
  CHECK(c[0].bf == 2);
  CHECK_FALSE(c[0].tr_err);
  CHECK(c[1].bf == 0);
  CHECK(c[1].tr_err);
  CHECK(hif.host_poll_send_completions().empty());
  CHECK(hif.host_free_send() == 2);
  CHECK(*hif.host_alloc_send() == 2);  // free list = completed buffers, in completion order
  CHECK(*hif.host_alloc_send() == 0);
  hif.nic_complete_send(1, false);
  hif.nic_complete_send(3, false);
  hif.nic_complete_send(2, false);
  hif.nic_complete_send(0, false);
  REQUIRE_THROWS_AS(hif.nic_complete_send(1, false), SimError);  // more completions than buffers out
  CHECK(hif.host_poll_send_completions().size() == 4);
  CHECK(hif.host_free_send() == 4);
}

TEST_CASE("RecvQueue and RecvCmplReg cycle the host receive buffers through the NIC free list", "[hostif]") {
  HostInterface hif(1, 3);
  for (int k = 0; k < 3; ++k) hif.nic_post_recv(*hif.nic_alloc_recv());
  CHECK_FALSE(hif.nic_alloc_recv().has_value());  // the NIC would NACK now
  CHECK(*hif.host_poll_recv() == 0);
  CHECK(*hif.host_poll_recv() == 1);
  hif.host_write_recv_cmpl(1);
  CHECK(hif.nic_free_recv() == 0);  // not before the NIC reads RecvCmplReg
  hif.nic_consume_recv_cmpl();
  CHECK(hif.nic_free_recv() == 1);
  CHECK(*hif.nic_alloc_recv() == 1);
  CHECK(*hif.host_poll_recv() == 2);
  CHECK_FALSE(hif.host_poll_recv().has_value());
}

TEST_CASE("per-target prefetch caps keep a blocked target from blocking the others", "[hostif][bulk]") {
  // Host 0 alternates packets for target 1 (which refuses host 0) and target 2. In-order
  // prefetch (cap = send buffers) ends with the NIC send buffers full of packets for 1.
  std::vector<std::unique_ptr<BulkChannel>> chans;
  std::vector<std::uint64_t> to2(2, 0);
  for (int cap : {16, 4}) {
    BulkConfig cfg;
    cfg.per_target_max = cap;
    chans.push_back(std::make_unique<BulkChannel>(cap == 16 ? "fifo" : "capped", cfg, TrafficConfig{}, 4,
                                                  make_arbiter("lcf", 4), 1, 0));
    auto& ch = *chans.back();
    ch.set_manual_traffic(true);
    ch.set_enable(1, 0, false);
    for (int k = 0; k < 20; ++k) { ch.inject(0, 1, 0); ch.inject(0, 2, 0); }
    std::size_t idx = chans.size() - 1;
    ch.on_deliver = [&to2, idx](const Packet& p, Time) { to2[idx] += p.dst == 2; };
  }
  sc_core::sc_start(sc_core::sc_time::from_value(2 * kMs));
  // In order: the first 16 SendReg entries hold 8 packets for 2; each freed buffer takes the next
  // entry, half of which are for 1, so 8 + 4 + 2 + 1 packets reach 2 before all 16 NIC send
  // buffers hold packets for the blocked target 1.
  CHECK(to2[0] == 15);
  CHECK(to2[1] == 20);  // all of them
}
