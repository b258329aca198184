// The Debug Adapter Protocol's base protocol (issue 20 part 3): each message is
// "Content-Length: N\r\n\r\n" followed by N bytes of UTF-8 JSON, over stdin/stdout or one TCP
// client on 127.0.0.1. Reading never throws on what the client sends: a bad header, an
// oversized body or bad JSON comes back as an error Message and reading goes on.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

namespace sanvp::fw {

class DapTransport {
 public:
  struct Message {
    enum class Kind { kOk, kBadHeader, kBadJson, kEof } kind = Kind::kEof;
    nlohmann::json json;  // kOk
    std::string error;    // kBadHeader, kBadJson: what was wrong, for the error response
  };

  static constexpr std::size_t kMaxBody = 16u << 20;   // a larger Content-Length is refused
  static constexpr std::size_t kMaxHeaderLine = 4096;  // a longer header line is refused

  // stdin/stdout: fd 1 is moved aside for the protocol and fd 1 then points at stderr, so that
  // nothing else printing to stdout (the console, SystemC) can corrupt the stream.
  static std::unique_ptr<DapTransport> stdio();
  // Listens on 127.0.0.1:port (0: any free port), prints "DAP server listening on
  // 127.0.0.1:PORT" to stderr and returns when one client has connected. UserError when the
  // port cannot be bound.
  static std::unique_ptr<DapTransport> listen_tcp(int port);
  // Over an existing pair of descriptors (tests, pipes); the transport does not own them.
  DapTransport(int in_fd, int out_fd, bool owns);
  ~DapTransport();
  DapTransport(const DapTransport&) = delete;
  DapTransport& operator=(const DapTransport&) = delete;

  Message read();  // blocks for the next message; kEof when the client closed the stream
  // Thread-safe. A client that went away makes this a no-op (reading then sees kEof).
  void write(const nlohmann::json& msg);
  bool broken() const { return broken_; }
  // Makes a read() blocked in another thread (and every later one) return kEof.
  void interrupt();

 private:
  bool fill();  // reads more bytes into buf_; false at end of stream
  bool read_line(std::string& line, bool& too_long);
  Message read_body(std::int64_t length);
  static std::size_t header_at(const std::string& line);
  int in_, out_;
  int wake_[2] = {-1, -1};  // interrupt()'s self-pipe, polled with in_
  bool owns_;
  std::string buf_;
  std::size_t pos_ = 0;
  std::string pending_;    // the rest of a line that held a header after junk
  bool skipping_ = false;
  std::int64_t body_len_ = -1;  // a body still to read after an error about its header  // after a bad header: dropping bytes up to the next Content-Length
  std::mutex write_mu_;
  bool broken_ = false;
};

}  // namespace sanvp::fw
