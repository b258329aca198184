#include "hw/barrier/barrier_core.hpp"

#include <fmt/format.h>

#include "hw/base/error.hpp"

namespace sanvp::barrier {

const char* to_string(DropReason r) {
  switch (r) {
    case DropReason::BadType: return "bad-type";
    case DropReason::UnknownGid: return "unknown-gid";
    case DropReason::NotChild: return "not-child";
    case DropReason::Duplicate: return "duplicate";
    case DropReason::NotParent: return "not-parent";
    case DropReason::Busy: return "busy";
  }
  return "?";
}

BarrierCore::BarrierCore(int ports, int registers) : ports_(ports) {
  if (ports < 2 || ports > kMaxBarrierPorts)
    throw UserError(fmt::format("barrier unit: {} ports (must be 2..{})", ports, kMaxBarrierPorts));
  if (registers < 1 || registers > 256)
    throw UserError(fmt::format("barrier unit: {} registers (must be 1..256)", registers));
  regs_.resize(static_cast<std::size_t>(registers));
  rr_.assign(static_cast<std::size_t>(ports), 0);
}

void BarrierCore::reset() {
  for (auto& r : regs_) r = BarrierRegister{};
  for (auto& p : rr_) p = 0;
  drops_ = fired_ = 0;
  drop_by_reason_.fill(0);
}

int BarrierCore::find_gid(std::uint8_t gid) const {
  for (std::size_t i = 0; i < regs_.size(); ++i)
    if (regs_[i].valid && regs_[i].gid == gid) return static_cast<int>(i);
  return -1;
}

ConfigResponse BarrierCore::configure(const ConfigCommand& cmd) {
  switch (cmd.op) {
    case ConfigOp::Alloc: {
      const std::uint64_t port_mask = ports_ == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << ports_) - 1;
      const bool ok = cmd.parent < ports_ && (cmd.cmask & ~port_mask) == 0 &&
                      (cmd.cmask >> cmd.parent & 1) != 0 &&
                      (cmd.cmask & ~(std::uint64_t{1} << cmd.parent)) != 0;
      if (!ok) return {ConfigStatus::Invalid, 0};
      if (find_gid(cmd.gid) >= 0) return {ConfigStatus::Duplicate, 0};
      for (std::size_t i = 0; i < regs_.size(); ++i) {
        if (regs_[i].valid) continue;
        BarrierRegister r;
        r.valid = true;
        r.gid = cmd.gid;
        r.parent = cmd.parent;
        r.cmask = cmd.cmask;
        regs_[i] = r;
        return {ConfigStatus::Ok, static_cast<std::uint8_t>(i)};
      }
      return {ConfigStatus::Full, 0};
    }
    case ConfigOp::Release: {
      const int i = find_gid(cmd.gid);
      if (i < 0) return {ConfigStatus::NotFound, 0};
      regs_[static_cast<std::size_t>(i)] = BarrierRegister{};  // pending outputs are discarded
      return {ConfigStatus::Ok, static_cast<std::uint8_t>(i)};
    }
    default: return {ConfigStatus::Invalid, 0};
  }
}

std::optional<DropReason> BarrierCore::drop(DropReason r) {
  ++drops_;
  ++drop_by_reason_[static_cast<int>(r)];
  return r;
}

std::optional<DropReason> BarrierCore::arrive(int port, std::uint16_t raw) {
  if (port < 0 || port >= ports_)
    throw SimError(fmt::format("barrier unit: message on nonexistent port {} of {}", port, ports_));
  const BarrierMessage m = BarrierMessage::decode(raw);
  if (m.type != MsgType::Reduce && m.type != MsgType::Distribute) return drop(DropReason::BadType);
  const int i = find_gid(m.gid);
  if (i < 0) return drop(DropReason::UnknownGid);
  BarrierRegister& r = regs_[static_cast<std::size_t>(i)];
  const std::uint64_t bit = std::uint64_t{1} << port;
  if (m.type == MsgType::Reduce) {
    if ((r.expected() & bit) == 0) return drop(DropReason::NotChild);
    if ((r.arrived & bit) != 0) return drop(DropReason::Duplicate);
    r.arrived |= bit;
    r.adata = m.data;
    return std::nullopt;
  }
  if (port != r.parent) return drop(DropReason::NotParent);
  if (r.pending != 0) return drop(DropReason::Busy);
  r.pending = r.expected();
  r.out = m;
  return std::nullopt;
}

int BarrierCore::fire() {
  int n = 0;
  for (auto& r : regs_) {
    const std::uint64_t exp = r.expected();
    if (!r.valid || exp == 0 || (r.arrived & exp) != exp || r.pending != 0) continue;
    r.pending = std::uint64_t{1} << r.parent;
    r.out = BarrierMessage{MsgType::Reduce, r.gid, r.adata};
    r.arrived = 0;
    ++n;
  }
  fired_ += static_cast<std::uint64_t>(n);
  return n;
}

int BarrierCore::selected(int port) const {
  const int n = registers();
  const std::uint64_t bit = std::uint64_t{1} << port;
  for (int k = 0; k < n; ++k) {
    int i = rr_[static_cast<std::size_t>(port)] + k;
    if (i >= n) i -= n;
    const auto& r = regs_[static_cast<std::size_t>(i)];
    if (r.valid && (r.pending & bit) != 0) return i;
  }
  return -1;
}

std::optional<BarrierMessage> BarrierCore::offer(int port) const {
  const int i = selected(port);
  if (i < 0) return std::nullopt;
  return regs_[static_cast<std::size_t>(i)].out;
}

void BarrierCore::take(int port) {
  const int i = selected(port);
  if (i < 0) throw SimError(fmt::format("barrier unit: port {} took a message but none was offered", port));
  regs_[static_cast<std::size_t>(i)].pending &= ~(std::uint64_t{1} << port);
  rr_[static_cast<std::size_t>(port)] = i + 1 == registers() ? 0 : i + 1;
}

std::uint64_t BarrierCore::busy_mask() const {
  std::uint64_t m = 0;
  for (std::size_t i = 0; i < regs_.size() && i < 64; ++i)
    if (regs_[i].valid) m |= std::uint64_t{1} << i;
  return m;
}

int BarrierCore::free_registers() const {
  int n = 0;
  for (const auto& r : regs_) n += r.valid ? 0 : 1;
  return n;
}

}  // namespace sanvp::barrier
