#include "platform/host/host_memory.hpp"

#include <algorithm>
#include <cstring>

namespace sanvp::host {

std::uint8_t* HostMemory::page(std::uint64_t n) {
  auto& p = pages_[n];
  if (!p) p = std::make_unique<std::uint8_t[]>(kPage);  // value-initialized: zero
  return p.get();
}

bool HostMemory::read(std::uint64_t addr, std::uint8_t* dst, std::uint32_t len) {
  if (addr + len > size_ || addr + len < addr) return false;
  while (len) {
    const std::uint64_t off = addr % kPage;
    const std::uint32_t n = static_cast<std::uint32_t>(std::min<std::uint64_t>(len, kPage - off));
    std::memcpy(dst, page(addr / kPage) + off, n);
    addr += n; dst += n; len -= n;
  }
  return true;
}

bool HostMemory::write(std::uint64_t addr, const std::uint8_t* src, std::uint32_t len) {
  if (addr + len > size_ || addr + len < addr) return false;
  bool watched = false;
  for (auto& r : ranges_)
    if (addr < r->hi && addr + len > r->lo) {
      r->ev.notify(sc_core::SC_ZERO_TIME);
      watched = true;
    }
  if (watched) watched_.notify(sc_core::SC_ZERO_TIME);
  while (len) {
    const std::uint64_t off = addr % kPage;
    const std::uint32_t n = static_cast<std::uint32_t>(std::min<std::uint64_t>(len, kPage - off));
    std::memcpy(page(addr / kPage) + off, src, n);
    addr += n; src += n; len -= n;
  }
  return true;
}

std::size_t HostMemory::watch(std::uint64_t lo, std::uint64_t hi) {
  ranges_.push_back(std::make_unique<Range>());
  ranges_.back()->lo = lo;
  ranges_.back()->hi = hi;
  return ranges_.size() - 1;
}

std::size_t HostMemory::watched_range_of(std::uint64_t addr) const {
  for (std::size_t i = 0; i < ranges_.size(); ++i)
    if (addr >= ranges_[i]->lo && addr < ranges_[i]->hi) return i;
  return ranges_.size();
}

std::uint32_t HostMemory::read_be32(std::uint64_t addr) {
  std::uint8_t b[4] = {0, 0, 0, 0};
  read(addr, b, 4);
  return (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) | b[3];
}

}  // namespace sanvp::host
