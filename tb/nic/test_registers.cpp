// The NIC register catalog (hw/nic/register.hpp) against the firmware-facing memory map
// (hw/nic/memory_map.hpp, used by firmware/runtime/include/fw/nic.h), against the models'
// reset state, and against the register table in docs/nic.md.
#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <sstream>

#include "hw/nic/memory_map.hpp"
#include "hw/nic/register.hpp"
#include "tb/nic/fixture.hpp"

using namespace sanvp;
using nic::RegisterCatalog;
namespace map = nic::map;

namespace {

struct Expected { const char* block; const char* name; std::uint32_t base, offset; };

// Every register firmware can name, with the constant firmware uses for it.
const Expected kExpected[] = {
    {"sys", "CONSOLE_TX", map::kSysBase, map::kConsoleTx},
    {"sys", "CONSOLE_STATUS", map::kSysBase, map::kConsoleStatus},
    {"sys", "EXIT", map::kSysBase, map::kExit},
    {"sys", "TIME_LO", map::kSysBase, map::kTimeLo},
    {"sys", "TIME_HI", map::kSysBase, map::kTimeHi},
    {"sys", "SCRATCH", map::kSysBase, map::kScratch},
    {"sys", "PROBE_TAG", map::kSysBase, map::kProbeTag},
    {"sys", "PROBE_VALUE", map::kSysBase, map::kProbeValue},
    {"regs", "ISR", map::kNicRegBase, map::nic::kIsr},
    {"regs", "IMR", map::kNicRegBase, map::nic::kImr},
    {"regs", "WAIT", map::kNicRegBase, map::nic::kWait},
    {"regs", "ISR_SET", map::kNicRegBase, map::nic::kIsrSet},
    {"regs", "RTC_LO", map::kNicRegBase, map::nic::kRtcLo},
    {"regs", "RTC_HI", map::kNicRegBase, map::nic::kRtcHi},
    {"regs", "RTC_FREQ", map::kNicRegBase, map::nic::kRtcFreq},
    {"regs", "TIMER0", map::kNicRegBase, map::nic::kTimer0},
    {"regs", "TIMER1", map::kNicRegBase, map::nic::kTimer1},
    {"regs", "RTC_ADJ", map::kNicRegBase, map::nic::kRtcAdj},
    {"regs", "TIMER0_AT", map::kNicRegBase, map::nic::kTimer0At},
    {"regs", "TIMER1_AT", map::kNicRegBase, map::nic::kTimer1At},
    {"regs", "DOORBELL", map::kNicRegBase, map::nic::kDoorbell},
    {"regs", "HOST_IRQ", map::kNicRegBase, map::nic::kHostIrq},
    {"regs", "NODE_ID", map::kNicRegBase, map::nic::kNodeId},
    {"regs", "MAILBOX", map::kNicRegBase, map::nic::kMailbox},
    {"hdma", "HDMA_RING", map::kNicRegBase, map::nic::kHdmaRing},
    {"hdma", "HDMA_SIZE", map::kNicRegBase, map::nic::kHdmaSize},
    {"hdma", "HDMA_HEAD", map::kNicRegBase, map::nic::kHdmaHead},
    {"hdma", "HDMA_TAIL", map::kNicRegBase, map::nic::kHdmaTail},
    {"hdma", "HDMA_STATUS", map::kNicRegBase, map::nic::kHdmaStatus},
    {"send", "SEND_ADDR", map::kNicRegBase, map::nic::kSendAddr},
    {"send", "SEND_LEN", map::kNicRegBase, map::nic::kSendLen},
    {"send", "SEND_ROUTE", map::kNicRegBase, map::nic::kSendRoute},
    {"send", "SEND_CTRL", map::kNicRegBase, map::nic::kSendCtrl},
    {"send", "SEND_STATUS", map::kNicRegBase, map::nic::kSendStatus},
    {"send", "SEND_STOP_LO", map::kNicRegBase, map::nic::kSendStopLo},
    {"send", "SEND_STOP_HI", map::kNicRegBase, map::nic::kSendStopHi},
    {"send", "SEND_GO_LO", map::kNicRegBase, map::nic::kSendGoLo},
    {"send", "SEND_GO_HI", map::kNicRegBase, map::nic::kSendGoHi},
    {"send", "SEND_FLAGS", map::kNicRegBase, map::nic::kSendFlags},
    {"send", "SEND_BLOCKED", map::kNicRegBase, map::nic::kSendBlocked},
    {"send", "SQ_RING", map::kNicRegBase, map::nic::kSqRing},
    {"send", "SQ_SIZE", map::kNicRegBase, map::nic::kSqSize},
    {"send", "SQ_HEAD", map::kNicRegBase, map::nic::kSqHead},
    {"send", "SQ_TAIL", map::kNicRegBase, map::nic::kSqTail},
    {"send", "SQ_STATUS", map::kNicRegBase, map::nic::kSqStatus},
    {"recv", "RX_RING", map::kNicRegBase, map::nic::kRxRing},
    {"recv", "RX_SIZE", map::kNicRegBase, map::nic::kRxSize},
    {"recv", "RX_BUFSIZE", map::kNicRegBase, map::nic::kRxBufSize},
    {"recv", "RX_POLICY", map::kNicRegBase, map::nic::kRxPolicy},
    {"recv", "RX_CTRL", map::kNicRegBase, map::nic::kRxCtrl},
    {"recv", "RX_TAIL", map::kNicRegBase, map::nic::kRxTail},
    {"recv", "RX_DROPS", map::kNicRegBase, map::nic::kRxDrops},
    {"recv", "RX_CRC_ERRORS", map::kNicRegBase, map::nic::kRxCrcErrors},
};

}  // namespace

TEST_CASE("Register catalog matches the firmware memory map constants", "[nic][registers]") {
  const auto all = RegisterCatalog::sorted();
  CHECK(all.size() == std::size(kExpected));
  for (const Expected& e : kExpected) {
    INFO(e.block << "." << e.name);
    const nic::RegisterInfo* r = RegisterCatalog::find(e.block, e.name);
    REQUIRE(r != nullptr);
    CHECK(r->base == e.base);
    CHECK(r->offset == e.offset);
  }
}

TEST_CASE("Register access matches its callbacks and every register is a 32-bit word", "[nic][registers]") {
  for (const auto& r : RegisterCatalog::sorted()) {
    INFO(r.block << "." << r.name);
    CHECK(r.has_read == nic::readable(r.access));
    CHECK(r.has_write == nic::writable(r.access));
    CHECK(r.offset % 4 == 0);
    CHECK(r.meaning.find('|') == std::string::npos);  // a markdown table cell
  }
}

TEST_CASE("Registers read their reset values after elaboration", "[nic][registers]") {
  test::NicFixture f;
  auto& net = f.build(2, 1);
  nic::Nic& n = net.nic(1);
  auto window = [&](const std::string& block) -> nic::RegisterWindow& {
    if (block == "sys") return n.sys().registers();
    if (block == "regs") return n.regs().registers();
    if (block == "hdma") return n.host_dma().registers();
    if (block == "send") return n.send_dma().registers();
    REQUIRE(block == "recv");
    return n.recv_dma().registers();
  };
  for (const auto& r : RegisterCatalog::sorted()) {
    if (!nic::readable(r.access) || r.name == "WAIT") continue;  // WAIT would sleep (nothing pending reads ISR & IMR = 0)
    INFO(r.block << "." << r.name);
    std::uint32_t v = 0xDEADBEEF;
    REQUIRE(window(r.block).reg_read(r.offset, v));
    if (r.name == "NODE_ID") CHECK(v == 1);
    else if (r.name == "RTC_FREQ") CHECK(v == 100000);  // nic.osc.freq default, in kHz
    else {
      CHECK(r.reset_text.empty());
      CHECK(v == r.reset);
    }
  }
}

TEST_CASE("Unknown register offsets behave as before the register helper", "[nic][registers]") {
  test::NicFixture f;
  auto& net = f.build(1, 1);
  nic::Nic& n = net.nic(0);
  std::uint32_t v = 7;
  // The NicRegs block 0x000..0x03F is fully used now: a write-only register there reads as 0.
  CHECK(n.regs().registers().reg_read(map::nic::kRtcAdj, v));
  CHECK(v == 0);
  // Elsewhere an unused offset is no block's register (the bus answers with an address error).
  CHECK_FALSE(n.regs().registers().reg_read(0x040, v));
  CHECK_FALSE(n.host_dma().registers().reg_read(0x054, v));
  CHECK_FALSE(n.send_dma().registers().reg_write(0x074, 1));
  CHECK_FALSE(n.recv_dma().registers().reg_read(0x0A0, v));
  CHECK_FALSE(n.sys().registers().reg_read(0x00C, v));
  // Write-only registers read as 0; writes to read-only registers are ignored.
  CHECK(n.send_dma().registers().reg_read(map::nic::kSendCtrl, v));
  CHECK(v == 0);
  CHECK(n.host_dma().registers().reg_write(map::nic::kHdmaTail, 9));
  CHECK(n.host_dma().registers().reg_read(map::nic::kHdmaTail, v));
  CHECK(v == 0);
}

TEST_CASE("docs/nic.md carries the register table sanvp params --registers --markdown prints", "[nic][registers]") {
  std::ifstream in(std::string(SANVP_SOURCE_DIR) + "/docs/nic.md");
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  const std::string begin = "<!-- registers: generated by `sanvp params --registers --markdown` -->\n";
  const std::string end = "<!-- /registers -->";
  const auto b = doc.find(begin);
  REQUIRE(b != std::string::npos);
  const auto e = doc.find(end, b);
  REQUIRE(e != std::string::npos);
  const std::string table = doc.substr(b + begin.size(), e - b - begin.size());
  INFO("regenerate the table with: sanvp params --registers --markdown");
  CHECK(table == RegisterCatalog::markdown());
}
