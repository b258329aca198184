// Checked file input and output for everything the user names on the command line or in a
// scenario: one place that refuses directories, FIFOs, devices and oversized inputs, and that
// checks every write (open, write, flush, close) so a full disk is never a silent success.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace sanvp {

// Largest input file sanvp reads (scenarios, topologies, firmware images): far above any real
// one, small enough that a mistaken path (a disk image, /dev/zero) fails at once.
inline constexpr std::uint64_t kMaxInputBytes = 64ull << 20;

// Reads a whole regular file of at most `max_bytes`. Throws UserError naming `what` and `path`
// for a missing or unreadable file, a directory, a FIFO or device, a read error, or a file
// above the limit (never reads more than max_bytes + 1 bytes).
std::string read_file_limited(const std::string& path, const std::string& what, std::uint64_t max_bytes = kMaxInputBytes);

// Checks before a run that `path` can be created: its folder exists and is a writable folder
// and `path` is not a folder. Throws UserError ("--report: cannot create 'x': no folder 'd'").
// An existing device or FIFO (/dev/null, /dev/full) is accepted: it is written in place.
void check_output_path(const std::string& path, const std::string& what);

// An output file written to a temporary sibling and renamed over `path` on commit(), so a
// failed run never leaves a partial file under the user's name. Devices and FIFOs are written
// in place. Opening throws UserError (a bad path: exit 2); a failed write, flush, close or
// rename throws IoError (exit 3). Destroying an uncommitted file removes the temporary.
class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const std::string& path, const std::string& what) { open(path, what); }
  ~OutputFile() { abandon(); }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void open(const std::string& path, const std::string& what);
  bool is_open() const { return file_ != nullptr; }
  std::FILE* get() const { return file_; }
  void write(const std::string& text);
  void commit();   // flush, close, check, rename into place
  void abandon();  // close and remove the temporary (no effect after commit)

 private:
  [[noreturn]] void fail(const char* step);
  std::string path_, tmp_, what_;
  std::FILE* file_ = nullptr;
};

// Writes `text` to `path` through an OutputFile (all of it or nothing).
void write_file_checked(const std::string& path, const std::string& text, const std::string& what);

}  // namespace sanvp
