// HostInterface: the host/NIC data structures of one Clint endpoint and channel (paper Figure 2).
//   Send:    the host takes a free HostSendBuffer, writes (bfId, tgt) into SendReg (a FIFO: the
//            NIC drains it faster than the host writes); the NIC posts (bfId, trErr, valid) to the
//            SendCmplQueue ring at SendCmplIn; the host dequeues at SendCmplOut. The free list is
//            a third pointer into the same ring (the paper's optimisation on the initiator side):
//            entries behind SendCmplOut hold indices of empty buffers.
//   Receive: the NIC takes a HostRecvBuffer from its own free list, posts (bfId, valid) to the
//            RecvQueue ring at RecvIn; the host dequeues at RecvOut and returns the buffer through
//            the RecvCmplReg FIFO, which the NIC drains into its free list.
// The rings have as many entries as there are buffers, so they cannot overflow; every operation
// checks that invariant and throws SimError if a caller breaks it.
#pragma once
#include <cstdint>
#include <deque>
#include <fmt/format.h>
#include <optional>
#include <vector>

#include "hw/base/error.hpp"

namespace sanvp::clint {

class HostInterface {
 public:
  struct SendRegEntry { int bf; int tgt; };
  struct SendCompletion { int bf; bool tr_err; };

  HostInterface(int send_buffers, int recv_buffers)
      : s_(static_cast<std::uint64_t>(send_buffers)), r_(static_cast<std::uint64_t>(recv_buffers)),
        cmpl_(s_), recv_q_(r_) {
    // All send buffers start on the free list: [free_out, cmpl_out) = free, nothing completed.
    for (std::uint64_t k = 0; k < s_; ++k) cmpl_[k] = Cmpl{static_cast<int>(k), false, false};
    free_out_ = 0;
    cmpl_out_ = cmpl_in_ = s_;
    for (int k = 0; k < recv_buffers; ++k) nic_recv_free_.push_back(k);
  }

  // ---- send side
  int send_buffers() const { return static_cast<int>(s_); }
  std::size_t host_free_send() const { return static_cast<std::size_t>(cmpl_out_ - free_out_); }
  std::optional<int> host_alloc_send() {
    if (free_out_ == cmpl_out_) return std::nullopt;
    return cmpl_[free_out_++ % s_].bf;
  }
  void host_write_send_reg(int bf, int tgt) { send_reg_.push_back(SendRegEntry{bf, tgt}); }
  std::deque<SendRegEntry>& send_reg() { return send_reg_; }  // the NIC's prefetch reads it
  void nic_complete_send(int bf, bool tr_err) {
    // The slot at SendCmplIn belongs to a buffer the host allocated earlier.
    if (cmpl_in_ >= free_out_ + s_) throw SimError(fmt::format("clint: SendCmplQueue overflow (buffer {})", bf));
    cmpl_[cmpl_in_++ % s_] = Cmpl{bf, tr_err, true};
  }
  std::vector<SendCompletion> host_poll_send_completions() {
    std::vector<SendCompletion> v;
    while (cmpl_out_ < cmpl_in_) {
      Cmpl& c = cmpl_[cmpl_out_++ % s_];
      if (!c.valid) throw SimError("clint: SendCmplQueue entry without valid bit");
      c.valid = false;  // stays in the ring as a free-list entry
      v.push_back(SendCompletion{c.bf, c.tr_err});
    }
    return v;
  }

  // ---- receive side
  std::size_t nic_free_recv() const { return nic_recv_free_.size(); }
  std::optional<int> nic_alloc_recv() {
    if (nic_recv_free_.empty()) return std::nullopt;
    int bf = nic_recv_free_.front();
    nic_recv_free_.pop_front();
    return bf;
  }
  void nic_post_recv(int bf) {
    if (recv_in_ >= recv_out_ + r_) throw SimError(fmt::format("clint: RecvQueue overflow (buffer {})", bf));
    recv_q_[recv_in_++ % r_] = Recv{bf, true};
  }
  std::optional<int> host_poll_recv() {
    if (recv_out_ == recv_in_) return std::nullopt;
    Recv& e = recv_q_[recv_out_++ % r_];
    if (!e.valid) throw SimError("clint: RecvQueue entry without valid bit");
    e.valid = false;
    return e.bf;
  }
  void host_write_recv_cmpl(int bf) { recv_cmpl_reg_.push_back(bf); }
  void nic_consume_recv_cmpl() {
    while (!recv_cmpl_reg_.empty()) {
      nic_recv_free_.push_back(recv_cmpl_reg_.front());
      recv_cmpl_reg_.pop_front();
    }
  }

 private:
  struct Cmpl { int bf; bool tr_err; bool valid; };
  struct Recv { int bf = -1; bool valid = false; };
  std::uint64_t s_, r_;
  std::vector<Cmpl> cmpl_;
  std::uint64_t free_out_ = 0, cmpl_out_ = 0, cmpl_in_ = 0;  // monotonic; index = value % s_
  std::deque<SendRegEntry> send_reg_;
  std::vector<Recv> recv_q_;
  std::uint64_t recv_in_ = 0, recv_out_ = 0;
  std::deque<int> nic_recv_free_;
  std::deque<int> recv_cmpl_reg_;
};

}  // namespace sanvp::clint
