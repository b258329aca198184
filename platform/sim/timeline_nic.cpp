#include "platform/sim/timeline_nic.hpp"

#include <fmt/format.h>
#include <memory>

#include "hw/base/error.hpp"

namespace sanvp {

void observe_nic(Timeline& tl, int node, nic::Nic& n) {
  const int pid = tl.node_pid(node);
  tl.name_thread(pid, Timeline::node_tid(NodeTrack::SendDma), "send DMA");
  tl.name_thread(pid, Timeline::node_tid(NodeTrack::RecvDma), "receive DMA");
  tl.name_thread(pid, Timeline::node_tid(NodeTrack::HostDma), "host DMA");
  // Every engine works on one transfer at a time, so its spans follow each other on its track.
  n.send_dma().add_observer([&tl, pid](std::uint32_t addr, std::uint32_t route, Time first, Time last, std::uint32_t wire) {
    tl.complete(pid, Timeline::node_tid(NodeTrack::SendDma), first, last, fmt::format("send {} B", wire), "dma",
                {{"sram", fmt::format("0x{:x}", addr)}, {"route_bytes", route}, {"wire_bytes", wire}});
  });
  n.recv_dma().add_observer([&tl, pid](std::uint32_t idx, Time first, Time last, std::uint32_t len, std::uint32_t status) {
    tl.complete(pid, Timeline::node_tid(NodeTrack::RecvDma), first, last, fmt::format("receive {} B", len), "dma",
                {{"descriptor", idx}, {"bytes", len}, {"status", fmt::format("0x{:x}", status)}});
  });
  n.host_dma().add_observer([&tl, pid](std::uint32_t idx, std::uint32_t local, std::uint64_t host, std::uint32_t len, bool to_sram,
                                       Time s, Time e) {
    tl.complete(pid, Timeline::node_tid(NodeTrack::HostDma), s, e, fmt::format("{} {} B", to_sram ? "host->SRAM" : "SRAM->host", len),
                "dma", {{"descriptor", idx}, {"sram", fmt::format("0x{:x}", local)}, {"host", fmt::format("0x{:x}", host)}, {"bytes", len}});
  });
}

namespace {

// Follows the pc: a span ends when the core leaves a function (call, return or jump alike).
class FunctionSpans : public nic::LanaiCore::DebugHook {
 public:
  FunctionSpans(Timeline& tl, int pid, const lanai::SymbolTable& syms) : tl_(tl), pid_(pid), syms_(syms) {}
  void before(nic::LanaiCore& core, const lanai::CpuState& s, const lanai::Insn&) override {
    const std::uint32_t pc = s.r[lanai::kPc];
    if (cur_ && pc >= cur_->addr && pc < cur_->addr + cur_->size) return;
    const lanai::Symbol* f = syms_.find(pc);
    if (f == cur_ && f) return;
    const Time now = core.debug_time();
    if (cur_) tl_.complete(pid_, Timeline::node_tid(NodeTrack::Firmware), start_, now, name(*cur_), "firmware");
    cur_ = f;
    start_ = now;
  }
  void after(nic::LanaiCore&, const lanai::CpuState&, const lanai::Insn&) override {}

 private:
  static std::string name(const lanai::Symbol& s) { return s.display.empty() ? s.name : s.display; }
  Timeline& tl_;
  int pid_;
  const lanai::SymbolTable& syms_;
  const lanai::Symbol* cur_ = nullptr;
  Time start_ = 0;
};

}  // namespace

void observe_firmware(Timeline& tl, int node, nic::LanaiCore& core) {
  const int pid = tl.node_pid(node);
  tl.name_thread(pid, Timeline::node_tid(NodeTrack::Firmware), "firmware");
  auto hook = std::make_shared<FunctionSpans>(tl, pid, core.program().symbols);
  core.attach_debugger(hook.get());
  tl.keep(hook);
}

}  // namespace sanvp
