#include "platform/fw/dap_transport.hpp"

#include <arpa/inet.h>
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fmt/format.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "hw/base/error.hpp"
#include "hw/base/params.hpp"

namespace sanvp::fw {

namespace {

// A client that disconnects must not kill the process with SIGPIPE: the write fails instead.
void ignore_sigpipe() { std::signal(SIGPIPE, SIG_IGN); }

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

DapTransport::DapTransport(int in_fd, int out_fd, bool owns) : in_(in_fd), out_(out_fd), owns_(owns) {
  ignore_sigpipe();
  if (::pipe(wake_) < 0) throw IoError(fmt::format("DAP: pipe: {}", std::strerror(errno)));
}

DapTransport::~DapTransport() {
  ::close(wake_[0]);
  ::close(wake_[1]);
  if (!owns_) return;
  ::close(in_);
  if (out_ != in_) ::close(out_);
}

void DapTransport::interrupt() {
  const char c = 0;
  while (::write(wake_[1], &c, 1) < 0 && errno == EINTR) {
  }
}

std::unique_ptr<DapTransport> DapTransport::stdio() {
  const int proto_out = ::dup(1);
  if (proto_out < 0 || ::dup2(2, 1) < 0) throw IoError(fmt::format("--dap: cannot redirect stdout: {}", std::strerror(errno)));
  return std::make_unique<DapTransport>(0, proto_out, false);
}

std::unique_ptr<DapTransport> DapTransport::listen_tcp(int port) {
  const int ls = ::socket(AF_INET, SOCK_STREAM, 0);
  if (ls < 0) throw IoError(fmt::format("--dap-port: socket: {}", std::strerror(errno)));
  const int one = 1;
  ::setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);  // local clients only: the protocol has no authentication
  socklen_t len = sizeof a;
  if (::bind(ls, reinterpret_cast<sockaddr*>(&a), sizeof a) < 0 || ::listen(ls, 1) < 0 ||
      ::getsockname(ls, reinterpret_cast<sockaddr*>(&a), &len) < 0) {
    const std::string why = std::strerror(errno);
    ::close(ls);
    throw UserError(fmt::format("--dap-port: cannot listen on 127.0.0.1:{}: {}", port, why));
  }
  fmt::print(stderr, "DAP server listening on 127.0.0.1:{}\n", ntohs(a.sin_port));
  std::fflush(stderr);
  int c = -1;
  do c = ::accept(ls, nullptr, nullptr);
  while (c < 0 && errno == EINTR);
  const std::string why = std::strerror(errno);
  ::close(ls);  // one client per session
  if (c < 0) throw IoError(fmt::format("--dap-port: accept: {}", why));
  return std::make_unique<DapTransport>(c, c, true);
}

bool DapTransport::fill() {
  if (pos_ > 0 && pos_ == buf_.size()) {
    buf_.clear();
    pos_ = 0;
  }
  char tmp[4096];
  while (true) {
    pollfd fds[2] = {{in_, POLLIN, 0}, {wake_[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (fds[1].revents) return false;  // interrupt(): the server is shutting down
    const ssize_t n = ::read(in_, tmp, sizeof tmp);
    if (n > 0) {
      buf_.append(tmp, static_cast<std::size_t>(n));
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    return false;
  }
}

// A header line without its "\r\n" (a bare "\n" is accepted too). A line longer than
// kMaxHeaderLine is consumed and flagged rather than buffered.
bool DapTransport::read_line(std::string& line, bool& too_long) {
  line.clear();
  too_long = false;
  while (true) {
    const auto nl = buf_.find('\n', pos_);
    const std::size_t end = nl == std::string::npos ? buf_.size() : nl;
    if (!too_long) line.append(buf_, pos_, end - pos_);
    if (line.size() > kMaxHeaderLine) {
      too_long = true;
      line.clear();
    }
    pos_ = nl == std::string::npos ? buf_.size() : nl + 1;
    if (nl != std::string::npos) break;
    if (!fill()) return false;
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

// The position of "content-length" in `line` (any case), or npos.
std::size_t DapTransport::header_at(const std::string& line) {
  return lower(line).find("content-length");
}

DapTransport::Message DapTransport::read_body(std::int64_t length) {
  Message m;
  // Read whole even when it arrives in pieces.
  while (buf_.size() - pos_ < static_cast<std::size_t>(length))
    if (!fill()) return m;  // kEof
  const std::string body = buf_.substr(pos_, static_cast<std::size_t>(length));
  pos_ += static_cast<std::size_t>(length);
  m.json = nlohmann::json::parse(body, nullptr, false);
  if (!m.json.is_discarded()) {
    m.kind = Message::Kind::kOk;
    return m;
  }
  m.kind = Message::Kind::kBadJson;
  m.error = fmt::format("the {}-byte message body is not valid JSON", length);
  m.json = nullptr;
  return m;
}

DapTransport::Message DapTransport::read() {
  if (body_len_ >= 0) {  // a body whose header block also held a bad line (reported before)
    const std::int64_t len = body_len_;
    body_len_ = -1;
    return read_body(len);
  }
  std::string line, error;
  bool too_long = false, seen = false;
  std::int64_t length = -1;
  // Header fields up to an empty line; fields other than Content-Length are ignored.
  while (true) {
    if (!pending_.empty()) {
      line.swap(pending_);
      pending_.clear();
    } else if (!read_line(line, too_long)) {
      return Message{};  // kEof (a partial header at the end is dropped)
    }
    const std::size_t k = too_long ? std::string::npos : header_at(line);
    // After a bad header its body cannot be delimited: skip to the next Content-Length.
    if (skipping_) {
      if (k == std::string::npos) continue;
      skipping_ = false;
      line.erase(0, k);
    } else if (k != std::string::npos && k > 0) {
      pending_ = line.substr(k);  // resynchronise on the header inside the line
      error = fmt::format("unexpected data '{}' before a Content-Length header", line.substr(0, std::min<std::size_t>(k, 40)));
      break;
    }
    if (too_long) {
      error = fmt::format("header line longer than {} bytes", kMaxHeaderLine);
      seen = true;
      continue;
    }
    if (line.empty()) {
      if (!seen) continue;  // a stray blank line between messages
      if (error.empty() && length < 0) error = "missing Content-Length header";
      if (error.empty()) return read_body(length);
      // With a valid length the stream stays in step: the body is read after the error.
      if (length >= 0) body_len_ = length;
      else skipping_ = true;
      break;
    }
    seen = true;
    const auto colon = line.find(':');
    if (colon == std::string::npos) {
      error = fmt::format("malformed header line '{}' (expected 'Content-Length: N')", line.substr(0, 80));
      continue;
    }
    if (lower(line.substr(0, colon)) != "content-length") continue;
    std::string v = line.substr(colon + 1);
    v.erase(0, v.find_first_not_of(" \t"));
    try {
      length = parse_int(v, "Content-Length", 0, static_cast<std::int64_t>(kMaxBody));
    } catch (const UserError& e) {
      error = e.what();
    }
  }
  Message m;
  m.kind = Message::Kind::kBadHeader;
  m.error = error;
  return m;
}

void DapTransport::write(const nlohmann::json& msg) {
  // Invalid UTF-8 (e.g. from the firmware's console) is replaced rather than thrown.
  const std::string body = msg.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  const std::string data = fmt::format("Content-Length: {}\r\n\r\n{}", body.size(), body);
  std::lock_guard<std::mutex> lock(write_mu_);
  std::size_t off = 0;
  while (!broken_ && off < data.size()) {
    const ssize_t n = ::write(out_, data.data() + off, data.size() - off);
    if (n > 0) off += static_cast<std::size_t>(n);
    else if (n < 0 && errno == EINTR) continue;
    else broken_ = true;
  }
}

}  // namespace sanvp::fw
