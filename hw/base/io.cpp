#include "io.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.hpp"

namespace sanvp {

namespace fs = std::filesystem;

namespace {

std::string errno_text(int e) { return std::strerror(e); }

// Closes a file descriptor on every path out of read_file_limited.
struct Fd {
  int fd;
  ~Fd() { if (fd >= 0) ::close(fd); }
};

}  // namespace

std::string read_file_limited(const std::string& path, const std::string& what, std::uint64_t max_bytes) {
  const std::string who = what.empty() ? path : fmt::format("{} '{}'", what, path);
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw UserError(fmt::format("{}: cannot open: {}", who, errno_text(errno)));
  if (S_ISDIR(st.st_mode)) throw UserError(fmt::format("{}: is a folder, not a file", who));
  if (!S_ISREG(st.st_mode)) throw UserError(fmt::format("{}: is not a regular file (a device, FIFO or socket cannot be read as input)", who));
  if (static_cast<std::uint64_t>(st.st_size) > max_bytes)
    throw UserError(fmt::format("{}: {} bytes is larger than the {}-byte limit for an input file", who, st.st_size, max_bytes));
  // O_NONBLOCK: a FIFO swapped in after the stat must not block the open.
  Fd f{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (f.fd < 0) throw UserError(fmt::format("{}: cannot open: {}", who, errno_text(errno)));
  std::string buf;
  char chunk[65536];
  while (true) {
    const ssize_t n = ::read(f.fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw UserError(fmt::format("{}: read error: {}", who, errno_text(errno)));
    if (n == 0) break;
    buf.append(chunk, static_cast<std::size_t>(n));
    // Files whose size stat cannot tell (/proc) are still bounded here.
    if (buf.size() > max_bytes)
      throw UserError(fmt::format("{}: larger than the {}-byte limit for an input file", who, max_bytes));
  }
  return buf;
}

void check_output_path(const std::string& path, const std::string& what) {
  if (path.empty()) throw UserError(fmt::format("{}: empty file name", what));
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (fs::is_directory(st)) throw UserError(fmt::format("{}: cannot create '{}': it is a folder", what, path));
  if (fs::exists(st) && !fs::is_regular_file(st)) {
    if (::access(path.c_str(), W_OK) != 0) throw UserError(fmt::format("{}: cannot write '{}': {}", what, path, errno_text(errno)));
    return;  // a device or FIFO, written in place
  }
  fs::path dir = fs::path(path).parent_path();
  if (dir.empty()) dir = ".";
  if (!fs::is_directory(dir, ec)) throw UserError(fmt::format("{}: cannot create '{}': no folder '{}'", what, path, dir.string()));
  if (::access(dir.c_str(), W_OK) != 0)
    throw UserError(fmt::format("{}: cannot create '{}': folder '{}': {}", what, path, dir.string(), errno_text(errno)));
  if (fs::exists(st) && ::access(path.c_str(), W_OK) != 0)
    throw UserError(fmt::format("{}: cannot write '{}': {}", what, path, errno_text(errno)));
}

void OutputFile::open(const std::string& path, const std::string& what) {
  abandon();
  check_output_path(path, what);
  path_ = path;
  what_ = what;
  std::error_code ec;
  const bool in_place = fs::exists(path, ec) && !fs::is_regular_file(path, ec);
  tmp_ = in_place ? std::string() : fmt::format("{}.tmp-{}", path, ::getpid());
  file_ = std::fopen(in_place ? path.c_str() : tmp_.c_str(), "w");
  if (!file_) throw UserError(fmt::format("{}: cannot create '{}': {}", what, path, errno_text(errno)));
}

void OutputFile::fail(const char* step) {
  const int e = errno;
  abandon();
  throw IoError(fmt::format("{}: {} '{}' failed: {}", what_, step, path_, errno_text(e)));
}

void OutputFile::write(const std::string& text) {
  if (!file_) return;
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) fail("writing");
}

void OutputFile::commit() {
  if (!file_) return;
  std::FILE* f = file_;
  if (std::fflush(f) != 0 || std::ferror(f)) fail("writing");
  file_ = nullptr;
  if (std::fclose(f) != 0) { file_ = nullptr; fail("closing"); }
  if (!tmp_.empty() && std::rename(tmp_.c_str(), path_.c_str()) != 0) fail("renaming into");
  tmp_.clear();
}

void OutputFile::abandon() {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
  tmp_.clear();
}

void write_file_checked(const std::string& path, const std::string& text, const std::string& what) {
  OutputFile f(path, what);
  f.write(text);
  f.commit();
}

}  // namespace sanvp
