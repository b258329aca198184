#include "platform/grim/grim_am.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <sstream>

#include "firmware/grim/grim_proto.h"
#include "hw/base/error.hpp"

namespace sanvp::grim_host {

namespace {
std::string names_text(const std::vector<std::string>& names) {
  std::string t;
  for (const auto& n : names) t += n + "\n";
  return t;
}
std::vector<std::string> text_names(const std::string& t) {
  std::vector<std::string> v;
  std::istringstream in(t);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) v.push_back(line);
  return v;
}
}  // namespace

void GrimAm::send_registry(std::uint32_t dst, std::uint32_t dst_ep, const std::string& text) {
  const auto len = static_cast<std::uint32_t>(std::max<std::size_t>(text.size(), 1));
  const std::uint64_t buf = ep_.alloc(len);  // a handful per run: never reused
  ep_.write_memory(buf, reinterpret_cast<const std::uint8_t*>(text.data()), static_cast<std::uint32_t>(text.size()));
  const std::uint32_t tag = kAmTagBase | (next_tag_++ & 0xFFFF);
  own_sends_[tag] = buf;
  ep_.send_to(dst, dst_ep, s_.channel, buf, len, tag, grim::kAmRegistry);
}

void GrimAm::start() {
  std::vector<std::string> mine;
  for (const auto& [name, fn] : local_) mine.push_back(name);
  const bool master = node_ == s_.master && ep_.endpoint() == s_.master_endpoint;
  if (master) {
    registration(GrimCompletion{grim::kCqRecv, node_, s_.channel, 0, 0, 0, ep_.endpoint(), grim::kAmRegistry}, names_text(mine));
    return;
  }
  send_registry(s_.master, s_.master_endpoint, names_text(mine));
}

// Master: one endpoint's names; once every participant has registered, ids in name order (the
// same table whatever order the registrations came in) to every participant.
void GrimAm::registration(const GrimCompletion& c, const std::string& text) {
  registered_.emplace_back(c.peer, c.peer_endpoint);
  for (auto& n : text_names(text)) names_.push_back(std::move(n));
  if (registered_.size() < s_.participants) return;
  std::sort(names_.begin(), names_.end());
  names_.erase(std::unique(names_.begin(), names_.end()), names_.end());
  if (names_.size() > grim::kAmMaxHandler)
    throw UserError(fmt::format("grim AM: {} handler names registered, at most {}", names_.size(), grim::kAmMaxHandler));
  const std::string t = names_text(names_);
  for (const auto& [n, e] : registered_)
    if (n == node_ && e == ep_.endpoint()) take_table(t);
    else send_registry(n, e, t);
}

void GrimAm::take_table(const std::string& text) {
  table_ = text_names(text);
  ready_ = true;
  for (const auto& [c, addr] : early_) run(c, addr);
  early_.clear();
}

std::uint32_t GrimAm::id(const std::string& name) const {
  const auto it = std::find(table_.begin(), table_.end(), name);
  return it == table_.end() ? 0 : static_cast<std::uint32_t>(it - table_.begin() + 1);
}

void GrimAm::send(std::uint32_t dst, std::uint32_t dst_endpoint, std::uint32_t channel, const std::string& name, std::uint64_t addr,
                  std::uint32_t length, std::uint32_t tag) {
  const std::uint32_t h = id(name);
  if (h == 0) throw UserError(fmt::format("grim AM: no handler '{}' in the master's table", name));
  ep_.send_to(dst, dst_endpoint, channel, addr, length, tag, h);
}

bool GrimAm::on_completion(const GrimCompletion& c, std::uint64_t addr) {
  if (c.kind == grim::kCqSent || c.kind == grim::kCqSendError) {
    const auto it = own_sends_.find(c.tag);
    if (it == own_sends_.end()) return false;
    own_sends_.erase(it);
    if (c.kind == grim::kCqSendError) throw SimError(fmt::format("grim AM: registry message to n{} refused by the NIC", c.peer));
    return true;
  }
  if (c.handler == 0) return false;
  if (c.handler == grim::kAmRegistry) {
    std::string text(c.length, '\0');
    ep_.read_memory(addr, reinterpret_cast<std::uint8_t*>(text.data()), c.length);
    if (node_ == s_.master && ep_.endpoint() == s_.master_endpoint) registration(c, text);
    else take_table(text);
    return true;
  }
  if (!ready_) early_.emplace_back(c, addr);  // runs once the table is known, in arrival order
  else run(c, addr);
  return true;
}

void GrimAm::run(const GrimCompletion& c, std::uint64_t addr) {
  const std::uint32_t h = c.handler;
  const auto it = h >= 1 && h <= table_.size() ? local_.find(table_[h - 1]) : local_.end();
  if (it == local_.end()) {
    ++unknown;
    if (errors.size() < 10)
      errors.push_back(fmt::format("handler id {} from n{}.e{} channel {} ({}) is not one this endpoint runs", h, c.peer, c.peer_endpoint,
                                   c.channel, h >= 1 && h <= table_.size() ? table_[h - 1] : "not in the table"));
    return;
  }
  ++handled;
  it->second(AmCall{c.peer, c.peer_endpoint, c.channel, h, addr, c.length, c.tag});
}

}  // namespace sanvp::grim_host
