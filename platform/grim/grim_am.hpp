// Active messages over GRIM (paper §2.4): every message carries a handler id (grim_proto.h: in
// the send-queue entry, the packet and the receiver's completion entry); the receiving endpoint
// runs the handler with (source node, source endpoint, channel, payload) when the message is
// delivered, so handlers run in order per channel. Handlers are registered by name with a
// master endpoint (node 0's host by default), which assigns the ids and sends the table to every
// participant before anyone uses it, all through GRIM messages with the reserved handler id
// kAmRegistry: an endpoint registers on its registry channel (the host's reserved channel 0, a
// device's own channel: it owns no other) and the master answers on its own reserved channel.
// An id nobody registered (or one sent before the table was known) is an error completion to
// the program and a counted error, never a crash.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "platform/grim/grim_endpoint.hpp"

namespace sanvp::grim_host {

inline constexpr std::uint32_t kAmTagBase = 0xFFFF0000u;  // tags of the AM layer's own messages

struct AmCall {
  std::uint32_t src = 0, src_endpoint = 0, channel = 0, handler = 0;
  std::uint64_t addr = 0;      // the payload, in the receiving endpoint's memory
  std::uint32_t length = 0, tag = 0;
};
using AmHandler = std::function<void(const AmCall&)>;

struct AmSetup {
  std::uint32_t master = 0, master_endpoint = 0;
  std::uint32_t participants = 1;  // registrations the master waits for (its own included)
  std::uint32_t channel = 0;       // this endpoint's registry channel (one it owns)
};

class GrimAm {
 public:
  GrimAm(GrimEndpoint& ep, std::uint32_t node, const AmSetup& s) : ep_(ep), node_(node), s_(s) {}
  // Before start: a handler this endpoint runs for messages naming `name`.
  void handle(const std::string& name, AmHandler fn) { local_[name] = std::move(fn); }
  // Sends this endpoint's names to the master (the master takes its own at once). The program
  // then feeds every completion to on_completion until ready().
  void start();
  bool ready() const { return ready_; }
  // Consumes the AM layer's part of a completion (payload at addr for received kinds): registry
  // traffic, handler calls (kept until the table is known), unknown ids (counted). False for
  // what is the program's own: a plain message (handler 0) or the sent completion of its send.
  bool on_completion(const GrimCompletion& c, std::uint64_t addr);
  // The id the master assigned to `name` (0: none); the table once ready().
  std::uint32_t id(const std::string& name) const;
  const std::vector<std::string>& table() const { return table_; }
  // Sends an active message running `name` at (dst, dst_endpoint); UserError for a name not in
  // the table (the sender refuses what no endpoint registered).
  void send(std::uint32_t dst, std::uint32_t dst_endpoint, std::uint32_t channel, const std::string& name, std::uint64_t addr,
            std::uint32_t length, std::uint32_t tag);
  std::uint64_t handled = 0, unknown = 0;
  std::vector<std::string> errors;  // the first few unknown ids, with their source

 private:
  void send_registry(std::uint32_t dst, std::uint32_t dst_ep, const std::string& text);
  void registration(const GrimCompletion& c, const std::string& text);
  void take_table(const std::string& text);
  void run(const GrimCompletion& c, std::uint64_t addr);

  GrimEndpoint& ep_;
  std::uint32_t node_;
  AmSetup s_;
  std::map<std::string, AmHandler> local_;
  std::vector<std::string> table_;                   // id - 1 -> name
  std::vector<std::pair<std::uint32_t, std::uint32_t>> registered_;  // master: (node, endpoint) of each registration
  std::vector<std::string> names_;                   // master: every name registered
  std::vector<std::pair<GrimCompletion, std::uint64_t>> early_;  // AMs that came before the table
  std::map<std::uint32_t, std::uint64_t> own_sends_;  // tag -> buffer of the AM layer's messages
  std::uint32_t next_tag_ = 0;
  bool ready_ = false;
};

}  // namespace sanvp::grim_host
