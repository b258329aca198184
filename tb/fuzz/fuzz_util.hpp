// Helpers shared by the libFuzzer targets (see tb/fuzz/CMakeLists.txt and README "Fuzzing").
//
// A target passes when the code under test either succeeds or throws sanvp::UserError (the
// documented outcome of bad input: a one-line error, exit code 2). Anything else -- a crash, a
// sanitizer report, another exception type escaping (libFuzzer reports it as a deadly signal),
// a hang (-timeout) or an unbounded allocation (-malloc_limit_mb, -rss_limit_mb) -- is a finding.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace sanvp::fuzz {

// A private folder for inputs that a loader can only read from a file, removed at exit.
inline const std::string& temp_dir() {
  static const std::string dir = [] {
    char tmpl[] = "/tmp/sanvp-fuzz-XXXXXX";
    const char* d = mkdtemp(tmpl);
    if (!d) { std::perror("mkdtemp"); std::abort(); }
    std::string s = d;
    static std::string to_remove = s;
    std::atexit([] { std::system(("rm -rf '" + to_remove + "'").c_str()); });
    return s;
  }();
  return dir;
}

// Writes the input to `<temp_dir>/<name>` (overwriting) and returns the path.
inline std::string write_temp(const std::string& name, const std::uint8_t* data, std::size_t size) {
  const std::string path = temp_dir() + "/" + name;
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) { std::perror(path.c_str()); std::abort(); }
  if (size && std::fwrite(data, 1, size, f) != size) { std::perror(path.c_str()); std::abort(); }
  std::fclose(f);
  return path;
}

}  // namespace sanvp::fuzz
