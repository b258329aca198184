#include "hw/link/link_faults.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp {

namespace {
std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}
}  // namespace

LinkFaultConfig LinkFaultConfig::from_params(ParamValues& pv, const std::string& path, std::vector<std::string>* named) {
  LinkFaultConfig c;
  c.read_params(pv, path);
  auto fail = [&](const std::string& msg) { pv.fail(path, "fault", "cuts", msg); };
  const std::string& text = c.cuts;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t end = text.find_first_of(";,", pos);
    const std::string item = trim(text.substr(pos, end == std::string::npos ? std::string::npos : end - pos));
    pos = end == std::string::npos ? text.size() : end + 1;
    if (item.empty()) continue;
    std::string link, span = item;
    if (const auto at = item.find('@'); at != std::string::npos) {
      link = trim(item.substr(0, at));
      span = trim(item.substr(at + 1));
      if (link.empty()) fail(fmt::format("'{}': empty link name before '@'", item));
    }
    // T1-T2; a '-' right after an exponent's 'e' belongs to the number.
    std::size_t dash = std::string::npos;
    for (std::size_t i = 1; i < span.size(); ++i)
      if (span[i] == '-' && span[i - 1] != 'e' && span[i - 1] != 'E') { dash = i; break; }
    if (dash == std::string::npos) fail(fmt::format("'{}': expected [LINK@]T1-T2 (e.g. sw0.p2.out@10us-20us)", item));
    Cut k{};
    try {
      k.from = parse_time(trim(span.substr(0, dash)), "fault.cuts");
      k.to = parse_time(trim(span.substr(dash + 1)), "fault.cuts");
    } catch (const UserError& e) {
      fail(fmt::format("'{}': {}", item, e.what()));
    }
    if (k.to <= k.from) fail(fmt::format("'{}': the cut must end after it begins", item));
    if (!link.empty() && link != path) {
      if (named) named->push_back(link);
      continue;
    }
    c.cut_list.push_back(k);
  }
  std::sort(c.cut_list.begin(), c.cut_list.end(), [](const Cut& a, const Cut& b) { return a.from < b.from; });
  return c;
}

bool LinkFaults::cut_at(Time t) const {
  for (const auto& k : cfg_.cut_list) {
    if (t < k.from) return false;
    if (t < k.to) return true;
  }
  return false;
}

bool LinkFaults::lose(const Flit& f, Time t) {
  if (by_cut_) ++st_.cut_flits; else ++st_.truncated_flits;
  if (f.tail) {
    discard_ = false;
    if (lose_end_) {
      ++st_.lost_packets;
      lost_.add(f.packet);
      if (on_lost_) on_lost_(f.packet, t);
    }
  }
  return false;
}

void LinkFaults::flip(Flit& f, std::uint8_t mask) {
  ++st_.corrupted;
  faulted(f.packet);
  f.data = static_cast<std::uint8_t>(f.data ^ mask);
  int bit = 0;
  while (!((mask >> bit) & 1)) ++bit;
  const bool many = (f.fault & kFlitFlipped) || (mask & (mask - 1));
  f.fault = static_cast<std::uint8_t>((f.fault & ~kFlitFlipBitMask) | kFlitFlipped | (many ? kFlitFlipMany : 0) | bit);
}

bool LinkFaults::apply(Flit& f, Time t) {
  ++st_.flits;
  if (f.head) {
    ++st_.worms;
    pos_ = 0;
    discard_ = need_head_ = lose_end_ = lost_flit_ = false;
    flips_ = std::move(flip_next_);
    flip_next_.clear();
    trunc_at_ = 0;
    if (cfg_.truncate > 0 && rng_.uniform01() < cfg_.truncate) trunc_at_ = 1 + static_cast<int>(rng_.below(kMaxTruncatePrefix));
  }
  ++pos_;
  if (discard_) return lose(f, t);
  if (!cfg_.cut_list.empty() && cut_at(t)) {
    faulted(f.packet);
    if (open_) {  // the head crossed before the cut: the link ends the worm here
      ++st_.cut_worms;
      ++st_.cut_flits;
      f.tail = true;
      f.fault |= kFlitLost;
      open_ = false;
      discard_ = true;
      lose_end_ = false;
      by_cut_ = true;
      return true;
    }
    // Nothing of this worm reached the receiver: all of it is lost.
    discard_ = true;
    lose_end_ = true;
    by_cut_ = true;
    return lose(f, t);
  }
  if (trunc_at_ > 0 && pos_ == trunc_at_ && !f.tail) {
    ++st_.truncated;
    faulted(f.packet);
    f.tail = true;
    lost_flit_ = true;
    discard_ = true;
    lose_end_ = false;
    by_cut_ = false;
  }
  if (!f.tail && cfg_.drop > 0) {
    ++st_.drop_eligible;
    if (rng_.uniform01() < cfg_.drop) {
      ++st_.dropped;
      faulted(f.packet);
      if (f.head) need_head_ = true;
      lost_flit_ = true;
      return false;
    }
  }
  if (cfg_.corrupt > 0) {
    ++st_.corrupt_eligible;
    if (rng_.uniform01() < cfg_.corrupt) {
      flip(f, static_cast<std::uint8_t>(1u << rng_.below(8)));
    }
  }
  for (const auto& [index, mask] : flips_)
    if (index + 1 == pos_ && mask) flip(f, mask);
  if (lost_flit_) f.fault |= kFlitLost;
  if (need_head_) { f.head = true; need_head_ = false; }
  open_ = !f.tail;
  return true;
}

}  // namespace sanvp
