// Files of command-line tests: a fresh scratch folder per test process, and whole-file reads.
#pragma once
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace sanvp::test {

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// An empty folder "<tmp>/<prefix>-<name>-<pid>" (the pid keeps parallel test processes apart).
inline std::filesystem::path scratch_dir(const std::string& prefix, const std::string& name) {
  namespace fs = std::filesystem;
  fs::path d = fs::temp_directory_path() / (prefix + "-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace sanvp::test
