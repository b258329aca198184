// Memory-mapped registers declared once, next to the model that implements them (VCML-style:
// a register is a name, an offset, an access, a reset value, a meaning and its read/write
// callbacks). A model class defines one static RegisterMap (its block: every register it
// decodes); the map enters the RegisterCatalog at start-up, the way ParamRegistrar fills the
// ParamCatalog, so `sanvp params --registers` lists the whole NIC register map and docs/nic.md's
// table is generated from it. Each instance owns a RegisterBank that binds the map to itself
// and decodes accesses.
//
//   const RegisterMap<HostDma> HostDma::kRegisters{"hdma", map::kNicRegBase, {
//       {r::kHdmaRing, "HDMA_RING", Access::RW, 0, "SRAM address of the ring",
//        [](HostDma& m) { return m.ring_; }, [](HostDma& m, std::uint32_t v) { m.ring_ = v & ~15u; }},
//   }};
//   RegisterBank<HostDma> bank_{*this, kRegisters};   // bank_.read(off, v) / bank_.write(off, v)
//
// Decoding: a register without a read callback reads as 0, one without a write callback ignores
// writes (both complete normally); an offset no register has is "not this block's" (read/write
// return false), unless the block declares a span whose unused offsets read as zero and ignore
// writes (the NicRegs block 0x000..0x03F does).
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace sanvp::nic {

// A block of registers inside a register window, as its owner decodes it. Offsets are relative
// to the window's base; false = not this block's register.
class RegisterWindow {
 public:
  virtual ~RegisterWindow() = default;
  virtual bool reg_read(std::uint32_t off, std::uint32_t& value) = 0;
  virtual bool reg_write(std::uint32_t off, std::uint32_t value) = 0;
};

// R: read only (writes ignored); W: write only (reads 0); RW: read and write; W1C: read, and
// writing 1 to a bit clears it.
enum class Access { R, W, RW, W1C };
const char* access_name(Access a);
inline bool readable(Access a) { return a != Access::W; }
inline bool writable(Access a) { return a != Access::R; }

// What the catalog keeps of a register (no callbacks: the catalog needs no model instance).
struct RegisterInfo {
  std::string block;       // module name inside a NIC: "regs", "hdma", "send", "recv", "sys"
  std::uint32_t base = 0;  // address of the block's window as firmware sees it
  std::uint32_t offset = 0;
  std::string name;        // firmware-manual name, e.g. "HDMA_RING"
  Access access = Access::RW;
  std::uint32_t reset = 0;
  std::string reset_text;  // instead of `reset` where the value depends on the instance or time
  std::string meaning;     // one line
  bool has_read = false, has_write = false;  // callbacks present (checked against `access` by a test)
  std::uint32_t address() const { return base + offset; }
  std::string reset_string() const;  // reset_text, else 0x%08x
};

// Every register of every block, for `sanvp params --registers` and docs/nic.md.
class RegisterCatalog {
 public:
  static void add(const RegisterInfo& info);  // a second register at the same address is a logic error
  static std::vector<RegisterInfo> sorted();  // by address
  static const RegisterInfo* find(const std::string& block, const std::string& name);
  static std::string text();      // aligned columns, one register per line
  static std::string markdown();  // the table in docs/nic.md
};

template <class M>
struct Register {
  std::uint32_t offset;
  const char* name;
  Access access;
  std::uint32_t reset;
  const char* meaning;
  std::uint32_t (*read)(M&) = nullptr;            // nullptr: reads as 0
  void (*write)(M&, std::uint32_t) = nullptr;     // nullptr: writes ignored
  const char* reset_text = nullptr;               // see RegisterInfo::reset_text
};

// One block of registers of model class M; define it once as a static member of M.
template <class M>
class RegisterMap {
 public:
  // span_end > 0: offsets in [span_begin, span_end) that no register has read as 0 and ignore writes.
  RegisterMap(const char* block, std::uint32_t base, std::initializer_list<Register<M>> regs,
              std::uint32_t span_begin = 0, std::uint32_t span_end = 0)
      : regs_(regs), span_begin_(span_begin), span_end_(span_end) {
    for (const Register<M>& r : regs_)
      RegisterCatalog::add(RegisterInfo{block, base, r.offset, r.name, r.access, r.reset, r.reset_text ? r.reset_text : "",
                                        r.meaning, r.read != nullptr, r.write != nullptr});
  }
  const Register<M>* find(std::uint32_t off) const {
    for (const Register<M>& r : regs_)
      if (r.offset == off) return &r;
    return nullptr;
  }
  bool in_span(std::uint32_t off) const { return off >= span_begin_ && off < span_end_; }
  const std::vector<Register<M>>& registers() const { return regs_; }

 private:
  std::vector<Register<M>> regs_;
  std::uint32_t span_begin_, span_end_;
};

// A model instance's registers: decodes an offset to its register's callback.
template <class M>
class RegisterBank : public RegisterWindow {
 public:
  RegisterBank(M& model, const RegisterMap<M>& map) : model_(model), map_(map) {}
  bool reg_read(std::uint32_t off, std::uint32_t& value) override {
    if (const Register<M>* r = map_.find(off)) {
      value = r->read ? r->read(model_) : 0;
      return true;
    }
    if (!map_.in_span(off)) return false;
    value = 0;
    return true;
  }
  bool reg_write(std::uint32_t off, std::uint32_t value) override {
    if (const Register<M>* r = map_.find(off)) {
      if (r->write) r->write(model_, value);
      return true;
    }
    return map_.in_span(off);
  }

 private:
  M& model_;
  const RegisterMap<M>& map_;
};

}  // namespace sanvp::nic
