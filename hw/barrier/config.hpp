// Register writes of the barrier unit. A node sets up (ALLOC) or frees (RELEASE) the barrier
// register of a group in the switch it is attached to; the switch answers with a response
// (wire_format.hpp carries both over links). FULL is the register-exhaustion report: the caller
// falls back to keeping the register in a member node's memory (platform/barrier).
#pragma once
#include <cstdint>

namespace sanvp::barrier {

enum class ConfigOp : std::uint8_t { Nop = 0, Alloc = 1, Release = 2, Reserved = 3 };

enum class ConfigStatus : std::uint8_t {
  Ok = 0,         // done; `reg` names the register
  Full = 1,       // ALLOC: no free register (exhaustion)
  Duplicate = 2,  // ALLOC: the GID already owns a register
  NotFound = 3,   // RELEASE: no register holds the GID
  Invalid = 4,    // bad op, parent port out of range, parent bit not in C, or no child
};

const char* to_string(ConfigStatus s);

struct ConfigCommand {
  ConfigOp op = ConfigOp::Nop;
  std::uint8_t gid = 0;
  std::uint8_t parent = 0;  // P: the port towards the parent switch (root switch: the root node)
  std::uint64_t cmask = 0;  // C_i: parent and children ports (children = switches + local members)
};

struct ConfigResponse {
  ConfigStatus status = ConfigStatus::Ok;
  std::uint8_t reg = 0;  // register index when status == Ok, else 0
  friend bool operator==(const ConfigResponse& a, const ConfigResponse& b) {
    return a.status == b.status && a.reg == b.reg;
  }
};

}  // namespace sanvp::barrier
