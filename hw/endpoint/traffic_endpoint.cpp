#include "hw/endpoint/traffic_endpoint.hpp"

#include <cmath>
#include <fmt/format.h>

#include "hw/barrier/wire_format.hpp"
#include "hw/base/error.hpp"
#include "hw/base/lookahead.hpp"
#include "hw/link/send_ahead.hpp"
#include "hw/base/sim_time.hpp"

namespace sanvp {

TrafficConfig TrafficConfig::from_params(ParamValues& pv, const std::string& path) {
  // Range errors say where the value was set (ParamValues::fail).
  auto fail = [&](const char* name, const std::string& msg) { pv.fail(path, "traffic", name, msg); };
  // Declared ranges: burst at most 1e6 (a burst is created at once, so an absurd mean would
  // never end its first burst); load at least 1e-6 (below, the gaps overflow time).
  TrafficConfig c;
  c.read_params(pv, path);
  const std::string& sizes = c.sizes_text;
  for (std::size_t pos = 0; pos < sizes.size();) {
    std::size_t comma = sizes.find(',', pos);
    const std::string item = sizes.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    pos = comma == std::string::npos ? sizes.size() : comma + 1;
    const auto colon = item.find(':');
    const int bytes = static_cast<int>(parse_int(item.substr(0, colon), "traffic.sizes"));
    const double w = colon == std::string::npos ? 1.0 : parse_real(item.substr(colon + 1), "traffic.sizes");
    if (bytes < kPayloadHeader || bytes > (1 << 24))
      fail("sizes", fmt::format("payload {} out of range ({}..16777216)", bytes, kPayloadHeader));
    if (!(w > 0.0)) fail("sizes", fmt::format("weight {} of {} bytes must be positive", w, bytes));
    c.sizes.emplace_back(bytes, w);
  }
  return c;
}

double TrafficConfig::mean_payload() const {
  if (sizes.empty()) return payload;
  double sum = 0, wsum = 0;
  for (auto [b, w] : sizes) { sum += b * w; wsum += w; }
  return sum / wsum;
}

TrafficEndpoint::TrafficEndpoint(sc_core::sc_module_name name, int id, PacketTable& table, GenerationClock& clock,
                                 std::uint64_t seed, const FlowControlConfig& rx_fc)
    : sc_module(name), id_(id), table_(table), rng_(seed, std::string(this->name()) + ".traffic"), fc_("in", rx_fc),
      clock_(clock), clock_slot_(clock.add([this] { generate(); })) {
  fc_.set_head_listener([this](Time arrival) { drain_ev_.at(std::max(arrival, pause_end(arrival))); });
  SC_METHOD(transmit);
  sensitive << xmit_ev_.event();
  dont_initialize();
  SC_METHOD(drain);
  sensitive << drain_ev_.event();
  dont_initialize();
}

LinkPort TrafficEndpoint::link_port() {
  LinkPort lp = single_link_port(*this, name(), this, fc_.config());
  lp.lookahead_buffer = &fc_;  // receive() pushes into fc_ or consumes the flit at once
  return lp;
}

void TrafficEndpoint::attach_output(LinkChannel* ch) {
  tx_.attach(ch, [this](Time eff) { xmit_ev_.at(eff); });
  tx_.set_work([this]() -> LinkTransmitter::Work {  // for the work-conservation monitor
    if (cur_) return {out_.created, out_.id};
    if (!queue_.empty()) return {queue_.front().created, queue_.front().id};
    return {};
  });
}

std::uint32_t TrafficEndpoint::inject(int dst, std::uint32_t payload, Time when) {
  if (dst < 0 || dst >= static_cast<int>(routes_.size()) || dst == id_)
    throw UserError(fmt::format("{}: no route to node {}", name(), dst));
  return inject_route(dst, routes_[dst], payload, when);
}

std::uint32_t TrafficEndpoint::inject_route(int dst, std::vector<std::uint8_t> route, std::uint32_t payload, Time when) {
  if (payload < static_cast<std::uint32_t>(kPayloadHeader))
    throw UserError(fmt::format("{}: payload {} below the {}-byte minimum", name(), payload, kPayloadHeader));
  if (when < now_ps()) throw UserError(fmt::format("{}: packet injected at {}, in the past", name(), format_time(when)));
  if (route.empty() || route.size() > 255) throw UserError(fmt::format("{}: route to node {} has {} hops", name(), dst, route.size()));
  PacketRecord r;
  r.src = static_cast<std::uint16_t>(id_);
  r.dst = static_cast<std::uint16_t>(dst);
  r.seq = next_seq_++;
  r.payload = payload;
  r.route_len = static_cast<std::uint8_t>(route.size());
  r.created = when;
  std::uint32_t id = table_.add(r);
  queue_.push_back(Outgoing{id, std::move(route), {}, when});
  xmit_ev_.at(when);
  tx_.work_at(when);
  return id;
}

void TrafficEndpoint::start_traffic(const TrafficConfig& cfg, int nodes) {
  traffic_ = cfg;
  nodes_ = nodes;
  next_ = Planned{};
  traffic_on_ = cfg.pattern != "none" && (cfg.targets.empty() ? nodes > 1 : cfg.targets.size() > 1);
  if (traffic_on_) clock_.at(clock_slot_, std::max(cfg.start, now_ps()));
}

int TrafficEndpoint::pick_destination() {
  if (traffic_.pattern == "permutation") return traffic_.permutation.at(static_cast<std::size_t>(id_));
  if (traffic_.pattern == "hotspot" && id_ != traffic_.hotspot && rng_.uniform01() < traffic_.hotspot_fraction)
    return traffic_.hotspot;
  if (!traffic_.targets.empty()) {  // a random other target (this node is one of them)
    const auto& t = traffic_.targets;
    std::size_t k = static_cast<std::size_t>(rng_.below(static_cast<std::uint64_t>(t.size() - 1)));
    if (t[k] >= id_) ++k;  // targets are sorted
    return t[k];
  }
  int dst = static_cast<int>(rng_.below(static_cast<std::uint64_t>(nodes_ - 1)));
  if (dst >= id_) ++dst;
  return dst;
}

std::uint32_t TrafficEndpoint::pick_payload() {
  if (traffic_.sizes.empty()) return static_cast<std::uint32_t>(traffic_.payload);
  double wsum = 0;
  for (auto [b, w] : traffic_.sizes) wsum += w;
  double x = rng_.uniform01() * wsum;
  for (auto [b, w] : traffic_.sizes) {
    if (x < w) return static_cast<std::uint32_t>(b);
    x -= w;
  }
  return static_cast<std::uint32_t>(traffic_.sizes.back().first);
}

// Creates the packet (or burst) planned for now, then plans the next one. A gap precedes its
// packet and is drawn from that packet's wire length, so the first packet of a Poisson or bursty
// source comes after a random gap too: the nodes do not all start with a packet at
// traffic.start (a synchronized burst that a large network takes long to drain). Periodic
// sources do start at traffic.start, in phase.
void TrafficEndpoint::generate() {
  const Time now = now_ps();
  if (!traffic_on_ || now >= traffic_.stop) return;
  const bool first = next_.payloads.empty();
  for (const std::uint32_t pl : next_.payloads) inject(next_.dst, pl, now);
  next_.payloads.clear();
  plan_next(now, first);
}

void TrafficEndpoint::plan_next(Time now, bool first) {
  const int dst = pick_destination();
  if (dst == id_ || dst < 0) return;  // a permutation may leave a node silent
  // Hops are known only from the route; the offered load counts the flits this node puts on its
  // link, so the mean gap is (wire length * cp) / load.
  const std::size_t hops = routes_.at(static_cast<std::size_t>(dst)).size();
  int len = 1;  // bursty: a burst of geometric length (mean traffic.burst) to one destination
  if (traffic_.process == "bursty")
    while (rng_.uniform01() >= 1.0 / traffic_.burst) ++len;
  std::uint64_t wire_flits = 0;
  next_.dst = dst;
  for (int i = 0; i < len; ++i) {
    const std::uint32_t pl = pick_payload();
    wire_flits += hops + 3 + pl;
    next_.payloads.push_back(pl);
  }
  const double mean = static_cast<double>(wire_flits) * static_cast<double>(tx_.channel()->timing().cp) / traffic_.load;
  Time g = 0;
  if (traffic_.process == "periodic") {
    g = first ? 0 : static_cast<Time>(std::llround(mean));
  } else {
    g = static_cast<Time>(std::llround(-std::log(1.0 - rng_.uniform01()) * mean));
  }
  if (g == 0 && !first) g = 1;
  clock_.at(clock_slot_, now + g);
}

void TrafficEndpoint::inject_raw(std::vector<std::uint8_t> bytes, Time when) {
  if (bytes.empty()) throw UserError(fmt::format("{}: empty raw packet", name()));
  if (when < now_ps()) throw UserError(fmt::format("{}: packet injected at {}, in the past", name(), format_time(when)));
  queue_.push_back(Outgoing{kNoPacket, {}, std::move(bytes), when});
  xmit_ev_.at(when);
  tx_.work_at(when);
}

// The queue's front becomes the packet being sent; what its flits need of its record is copied,
// so sending a flit looks nothing up in the packet table.
void TrafficEndpoint::begin_packet() {
  out_ = std::move(queue_.front());
  queue_.pop_front();
  cur_ = true;
  pos_ = 0;
  crc_ = 0;
  if (out_.id == kNoPacket) {
    out_len_ = static_cast<std::uint32_t>(out_.raw.size());
    out_payload_at_ = out_payload_end_ = 0;
    return;
  }
  const PacketRecord& r = table_[out_.id];
  out_len_ = r.wire_len();
  out_route_len_ = r.route_len;
  out_payload_len_ = r.payload;
  out_payload_at_ = out_route_len_ + 2;  // after the route and the type
  out_payload_end_ = out_payload_at_ + out_payload_len_;
  out_payload_.start(r);
}

std::uint8_t TrafficEndpoint::flit_byte(std::uint32_t j) {
  if (out_.id == kNoPacket) return out_.raw[j];
  if (j < out_route_len_) return out_.route[j];
  j -= out_route_len_;
  if (j == 0) return static_cast<std::uint8_t>(kTestPacketType >> 8);
  if (j == 1) return static_cast<std::uint8_t>(kTestPacketType & 0xff);
  j -= 2;
  if (j < out_payload_len_) return out_payload_.at(j);
  return crc_;
}

// Sends flit pos_ of the current packet, departing at t.
inline void TrafficEndpoint::send_flit(Time t) {  // inline: once per flit, from transmit alone
  Flit f;
  f.packet = out_.id;
  if (pos_ >= out_payload_at_ && pos_ < out_payload_end_) {  // a payload byte (most flits): neither head nor tail
    f.data = out_payload_.at(pos_ - out_payload_at_);
    crc_ = crc8_update(crc_, f.data);
    tx_.send(f, t);
    ++stats_.sent_flits;
    ++pos_;
    return;
  }
  const bool raw = out_.id == kNoPacket;
  f.data = flit_byte(pos_);
  f.head = pos_ == 0;
  f.tail = pos_ + 1 == out_len_;
  if (!raw) {
    if (pos_ >= out_route_len_ && !f.tail) crc_ = crc8_update(crc_, f.data);
    if (pos_ == 0) table_[out_.id].injected = t;
  }
  tx_.send(f, t);
  ++stats_.sent_flits;
  ++pos_;
  if (f.tail) {
    cur_ = false;
    if (!raw) ++stats_.sent_packets;
  }
}

void TrafficEndpoint::transmit() {
  xmit_ev_.fired();
  const Time now = now_ps();
  // Lookahead: a STOP not received yet leaves its flow controller at `now` or later and acts
  // ld + 2*fc after that, so every flit that departs before now + ld can be sent in this
  // activation, stamped with its exact departure time. Saves events, not accuracy. Under a
  // lookahead limit, later flits too while the switch's buffer has room (downstream_room).
  // Never past the next window snapshot (Lookahead::observation): a flit departing after it
  // must count in the next window's flits.
  const Time horizon = std::min(now + tx_.channel()->timing().ld, std::max(now, Lookahead::observation()));
  const Time ahead = downstream_ahead_limit(tx_, now);
  while (true) {
    if (!cur_) {
      if (queue_.empty()) return;
      const Time created = queue_.front().created;
      const Time t0 = std::max(created, tx_.next_slot(created));
      if (t0 > now && t0 >= horizon && !(t0 < ahead && downstream_room(tx_, t0, now))) {
        xmit_ev_.at(t0);
        return;
      }
      begin_packet();
    }
    const Time t = std::max(now, tx_.next_slot(out_.created));
    if (t > now && t >= horizon && !(t < ahead && downstream_room(tx_, t, now))) { xmit_ev_.at(t); return; }
    if (tx_.stopped(t)) {
      if (t > now) { xmit_ev_.at(t); return; }  // meet the STOP at its instant
      if (!was_stopped_) {
        was_stopped_ = true;
        stop_began_ = now;
        if (stall_observer_) stall_observer_(now);
      }
      return;  // GO wakes us
    }
    if (was_stopped_) { stats_.stalled_time += t - stop_began_; was_stopped_ = false; }
    send_flit(t);
  }
}

Time TrafficEndpoint::pause_end(Time t) const {
  for (const auto& [a, b] : pauses_) if (t >= a && t < b) return b;
  return t;
}


void TrafficEndpoint::drain() {
  drain_ev_.fired();
  const Time now = now_ps();
  if (fc_.empty()) return;
  // A paused sink drains its backlog at the link's rate once it resumes.
  const Time cp = fc_.upstream() ? fc_.upstream()->timing().cp : 0;
  const auto& h = fc_.head();
  Time t = h.arrival;
  if (last_consume_ != kNever) t = std::max(t, last_consume_ + cp);
  t = pause_end(t);
  if (now < t) { drain_ev_.at(t); return; }
  Flit f = h.flit;
  fc_.pop(now);
  last_consume_ = now;
  consume(f, now);
  if (!fc_.empty()) drain_ev_.at(now + cp);
}

// Nearly every flit is a payload byte inside a test worm: consume's checks for it, in short
// (false: not such a flit, consume takes it). Inline into receive, so such a flit costs no call.
inline bool TrafficEndpoint::consume_payload(const Flit& f) {
  if (!(rx_active_ && !f.head && !f.tail && !raw_active_ && !rx_foreign_ && rx_pos_ >= 2 && rx_pos_ < rx_body_)) return false;
  if (f.packet != rx_pkt_ || f.data != rx_payload_.at(rx_pos_ - 2)) rx_bad_ = true;
  rx_crc_ = crc8_update(rx_crc_, f.data);
  ++rx_pos_;
  ++stats_.recv_bytes;
  return true;
}

void TrafficEndpoint::consume(const Flit& f, Time at) {
  if (consume_payload(f)) return;
  // Barrier packets come from the switch's unit (no packet id); a packet of the table whose
  // leading byte a link fault turned into a barrier lead is still checked as that packet.
  if (raw_active_ || (f.head && f.packet == kNoPacket && barrier::is_barrier_lead(f.data))) {
    // A packet from the switch's barrier unit (message or register-write answer).
    if (f.head) { raw_active_ = true; raw_.clear(); }
    raw_.push_back(f.data);
    if (f.tail) {
      raw_active_ = false;
      ++stats_.barrier_packets;
      if (barrier_observer_) barrier_observer_(raw_, at);
    }
    return;
  }
  if (f.head && f.packet >= table_.size()) {  // not test traffic (a NIC sent it here): refused
    if (rx_active_) {
      table_[rx_pkt_].corrupt = true;
      ++stats_.errors;
      rx_active_ = false;
    }
    rx_foreign_ = true;
  }
  if (rx_foreign_) {
    if (f.tail) {
      rx_foreign_ = false;
      ++stats_.foreign_packets;
      foreign_ends_.add(f.packet);
    }
    return;
  }
  if (f.head) {
    if (rx_active_) {  // previous worm lost its tail
      table_[rx_pkt_].corrupt = true;
      ++stats_.errors;
    }
    rx_active_ = true;
    rx_pkt_ = f.packet;
    rx_pos_ = 0;
    rx_crc_ = 0;
    rx_bad_ = false;
    PacketRecord& h = table_[rx_pkt_];
    h.head_arrival = at;
    rx_body_ = 2 + h.payload;  // what the body flits need of the record, copied once
    rx_payload_.start(h);
  } else if (!rx_active_) {
    ++stats_.errors;  // flit outside a worm
    return;
  }
  if (f.packet != rx_pkt_) rx_bad_ = true;
  const std::uint32_t body = rx_body_;  // bytes covered by the CRC
  if (rx_pos_ < body) {
    std::uint8_t expect = rx_pos_ == 0 ? static_cast<std::uint8_t>(kTestPacketType >> 8)
                        : rx_pos_ == 1 ? static_cast<std::uint8_t>(kTestPacketType & 0xff)
                                       : rx_payload_.at(rx_pos_ - 2);
    if (f.data != expect) rx_bad_ = true;
    rx_crc_ = crc8_update(rx_crc_, f.data);
    if (f.tail) rx_bad_ = true;  // too short
  } else if (rx_pos_ == body) {
    if (f.data != rx_crc_ || !f.tail) rx_bad_ = true;
  } else {
    rx_bad_ = true;  // too long
  }
  ++rx_pos_;
  ++stats_.recv_bytes;
  if (f.tail) {
    rx_active_ = false;
    PacketRecord& r = table_[rx_pkt_];
    table_.set_tail_arrival(rx_pkt_, at);
    if (rx_bad_ || r.dst != id_) {
      r.corrupt = true;
      ++stats_.errors;
    } else {
      ++r.deliveries;
      ++stats_.recv_packets;
      if (delivery_observer_) delivery_observer_(rx_pkt_, at);
    }
  }
}

void TrafficEndpoint::receive(const Flit& f, Time arrival) {
  // Fast path: an idle, unpaused sink consumes each flit as it arrives, costing no event.
  if (pauses_.empty()) {
    if (!consume_payload(f)) consume(f, arrival);
    return;
  }
  fc_.push(f, arrival);
}

}  // namespace sanvp
