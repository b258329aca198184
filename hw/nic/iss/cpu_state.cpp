#include "hw/nic/iss/cpu_state.hpp"

namespace sanvp::lanai {

const char* fault_kind_name(FaultKind k) {
  switch (k) {
    case FaultKind::kIllegalInstruction: return "illegal instruction";
    case FaultKind::kUnsupportedInstruction: return "unsupported instruction";
    case FaultKind::kMisalignedAccess: return "misaligned access";
    case FaultKind::kUnmappedAccess: return "access outside mapped memory";
    case FaultKind::kBusError: return "bus error";
    case FaultKind::kStackOverflow: return "stack overflow";
    case FaultKind::kFetchOutsideCode: return "fetch outside code";
    case FaultKind::kMisalignedFetch: return "misaligned fetch";
  }
  return "fault";
}

}  // namespace sanvp::lanai
