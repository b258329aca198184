#include "platform/host/msg_timeline.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <iterator>
#include <map>

#include "firmware/msg/msg_proto.h"
#include "hw/nic/irq.hpp"
#include "hw/nic/memory_map.hpp"
#include "hw/base/error.hpp"
#include "platform/sim/report.hpp"
#include "platform/sim/timeline_nic.hpp"

namespace sanvp::host {

namespace {

// A big-endian word of NIC SRAM, 0 past its end (the timeline peeks at packet headers).
std::uint32_t sram32(nic::Nic& n, std::uint32_t a) {
  if (std::uint64_t{a} + 4 > n.sram().size()) return 0;
  return nic::get_be32(n.sram().data() + a);
}
std::uint32_t sram16(nic::Nic& n, std::uint32_t a) {
  if (std::uint64_t{a} + 2 > n.sram().size()) return 0;
  const std::uint8_t* p = n.sram().data() + a;
  return (std::uint32_t{p[0]} << 8) | p[1];
}

// Tag of the message packet whose type field is at `a` (kNoTag if it is not one).
constexpr std::uint32_t kNoTag = 0xFFFFFFFFu;
std::uint32_t tag_at(nic::Nic& n, std::uint32_t type_addr) {
  if (sram16(n, type_addr) != msg::kMsgPacketType) return kNoTag;
  return sram32(n, type_addr + msg::kOffTag);
}

}  // namespace

Time MsgTimeline::find(int node, const std::string& what, std::uint32_t tag) const {
  for (const auto& e : ev_)
    if (e.node == node && e.tag == tag && e.what == what) return e.t;
  return kNever;
}

void MsgTimeline::record(Network& net, Time from, Time to, bool firmware, std::uint64_t seed) {
  rec_ = std::make_unique<Timeline>(from, to);
  rec_->observe_network(net);
  firmware_ = firmware;
  seed_ = seed;
}

void MsgTimeline::observe(int h, MsgDriver& driver, nic::Nic& n) {
  if (rec_) {
    observe_nic(*rec_, h, n);
    if (firmware_) observe_firmware(*rec_, h, n.core());
    rec_->name_thread(rec_->node_pid(h), Timeline::node_tid(NodeTrack::Host), "host");
  }
  driver.set_observer([this, h](const char* what, std::uint32_t, std::uint32_t tag, Time t) { add(t, h, what, tag, 0); });
  n.host_dma().set_observer([this, &n, h](std::uint32_t, std::uint32_t local, std::uint64_t, std::uint32_t len, bool to_sram, Time s,
                                          Time e) {
    const std::uint32_t tag = tag_at(n, local - msg::kOffData);
    if (tag != kNoTag) {
      const char* what = to_sram ? "hdma_load" : "hdma_deliver";
      add(s, h, std::string(what) + "_start", tag, len);
      add(e, h, std::string(what) + "_end", tag, len);
    } else if (!to_sram && len == msg::kCqEntryBytes) {
      const std::uint32_t t = sram32(n, local + 12);
      add(s, h, "hdma_cq_start", t, len);
      add(e, h, "hdma_cq_end", t, len);
    }
  });
  n.send_dma().set_observer([this, &n, h](std::uint32_t addr, std::uint32_t route, Time first, Time last, std::uint32_t bytes) {
    const std::uint32_t tag = tag_at(n, addr + route);
    add(first, h, "inject", tag, bytes);
    add(last, h, "tail_out", tag, bytes);
  });
  n.recv_dma().set_observer([this, &n, h](std::uint32_t idx, Time first, Time last, std::uint32_t len, std::uint32_t) {
    std::uint32_t ring = 0;
    n.recv_dma().reg_read(nic::map::nic::kRxRing, ring);
    const std::uint32_t tag = tag_at(n, sram32(n, ring + idx * 8));
    add(first, h, "rx_head", tag, len);
    add(last, h, "rx_done", tag, len);
  });
}

// The driver's calls as instants on the host track, and a span per message from the sender's
// post to the receiver's notice of its completion (tags are unique per message).
void MsgTimeline::add_messages() {
  std::stable_sort(ev_.begin(), ev_.end(), [](const Event& a, const Event& b) { return a.t < b.t; });
  const int host = Timeline::node_tid(NodeTrack::Host);
  std::map<std::uint32_t, const Event*> recv;  // tag -> where and when its receiver noticed it
  for (const auto& e : ev_)
    if (e.what == "host_recv") recv.emplace(e.tag, &e);
  for (const auto& e : ev_) {
    if (e.what.rfind("host_", 0) == 0 || e.what == "doorbell")
      rec_->instant(rec_->node_pid(e.node), host, e.t, e.what, "host", {{"tag", fmt::format("0x{:x}", e.tag)}});
    const auto r = recv.find(e.tag);
    if (e.what != "host_post" || r == recv.end() || r->second->node == e.node || r->second->t < e.t) continue;
    rec_->async(rec_->node_pid(e.node), host, e.t, r->second->t, fmt::format("msg 0x{:x}", e.tag), "message",
                {{"tag", fmt::format("0x{:x}", e.tag)}, {"from", fmt::format("n{}", e.node)}, {"to", fmt::format("n{}", r->second->node)}});
  }
}

void MsgTimeline::write_json(const std::string& file) {
  if (!rec_) throw std::logic_error("MsgTimeline::write_json without record()");
  add_messages();
  Report().write({file, "--timeline"}, rec_->text(rec_->other_data("msg", "", seed_)));
}

std::string latency_breakdown(const MsgTimeline& tl, const BreakdownInputs& in, nlohmann::json& report) {
  auto T = [&](int node, const char* w) { return tl.find(node, w, in.tag); };
  const Time t_post = T(0, "host_post"), t_bell = T(0, "doorbell"), t_l0 = T(0, "hdma_load_start"), t_l1 = T(0, "hdma_load_end"),
             t_inj = T(0, "inject"), t_rx = T(1, "rx_done"), t_d0 = T(1, "hdma_deliver_start"), t_d1 = T(1, "hdma_deliver_end"),
             t_c0 = T(1, "hdma_cq_start"), t_c1 = T(1, "hdma_cq_end"), t_seen = T(1, "host_recv");
  const Time all[] = {t_post, t_bell, t_l0, t_l1, t_inj, t_rx, t_d0, t_d1, t_c0, t_c1, t_seen};
  for (std::size_t i = 0; i < std::size(all); ++i)
    if (all[i] == kNever || (i > 0 && all[i] < all[i - 1])) return {};
  const Time switches = static_cast<Time>(in.hops) * in.switch_delay;
  const Time wire = (t_rx - t_inj) - switches;
  const Time pio = t_bell - t_post, fw_send = (t_l0 - t_bell) + (t_inj - t_l1), hdma = (t_l1 - t_l0) + (t_d1 - t_d0) + (t_c1 - t_c0),
             fw_recv = (t_d0 - t_rx) + (t_c0 - t_d1), notice = t_seen - t_c1, total = t_seen - t_post;
  report["latency_breakdown"] = {{"message_bytes", in.bytes},   {"host_pio_us", us(pio)},         {"firmware_send_us", us(fw_send)},
                                 {"host_dma_us", us(hdma)},     {"switches_us", us(switches)},    {"wire_us", us(wire)},
                                 {"firmware_recv_us", us(fw_recv)}, {"host_notice_us", us(notice)}, {"total_us", us(total)}};
  std::string out = fmt::format("one-way latency of one {} message (the last ping, post to completion seen; the table's is a round trip / 2), "
                                "{:.3f} us =\n", size_text(in.bytes), us(total));
  auto line = [&](const std::string& what, Time t) { out += fmt::format("  {:<44}{:8.3f} us\n", what, us(t)); };
  line("host PIO (driver call, SQ entry, doorbell)", pio);
  line("firmware, sending NIC", fw_send);
  line("host DMA (load, deliver, completion)", hdma);
  line(fmt::format("switches ({} x (rd + sd))", in.hops), switches);
  line("wire (links and serialization)", wire);
  line("firmware, receiving NIC", fw_recv);
  line(in.irq ? "host notices the completion (interrupt)" : "host notices the completion (polling)", notice);
  return out;
}

std::string size_text(std::uint32_t s) {
  if (s >= (1u << 20) && s % (1u << 20) == 0) return fmt::format("{} MiB", s >> 20);
  if (s >= 1024 && s % 1024 == 0) return fmt::format("{} KiB", s >> 10);
  return fmt::format("{} B", s);
}

}  // namespace sanvp::host
