// Why a target refused an access the address decoder accepted (an error response): a TLM
// extension the target attaches, so the core's fault report can say why, not just "error".
#pragma once
#include <string>
#include <tlm>

namespace sanvp::nic {

struct Refusal : tlm::tlm_extension<Refusal> {
  std::string why;
  tlm::tlm_extension_base* clone() const override { return new Refusal(*this); }
  void copy_from(const tlm::tlm_extension_base& e) override { why = static_cast<const Refusal&>(e).why; }
};

// Sets the error response and the reason (the payload keeps the extension until cleared).
inline void refuse(tlm::tlm_generic_payload& p, Refusal& r, std::string why) {
  r.why = std::move(why);
  p.set_extension(&r);
  p.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
}

}  // namespace sanvp::nic
