// Helpers of the sweep backend tests: run a shell command, read a file, count progress lines.
#pragma once
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace sweep_test {

namespace fs = std::filesystem;

inline std::string source_dir() { const char* d = std::getenv("SANVP_SOURCE_DIR"); return d ? d : SANVP_TEST_SOURCE_DIR; }
inline std::string sanvp_bin() { const char* b = std::getenv("SANVP_BIN"); return b ? b : SANVP_TEST_BIN; }
inline std::string scenario() { return source_dir() + "/platform/scenarios/single-switch-uniform.yaml"; }

inline int run(const std::string& cmd) {
  const int st = std::system(cmd.c_str());
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

inline std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

inline int count_lines_with(const fs::path& p, const std::string& what) {
  std::ifstream f(p);
  int n = 0;
  for (std::string l; std::getline(f, l);) n += l.find(what) != std::string::npos;
  return n;
}

// A fresh folder for one test case, removed at the end.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag) : path(fs::temp_directory_path() / fmt::format("sanvp-{}-{}", tag, ::getpid())) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { std::error_code ec; fs::remove_all(path, ec); }
};

// `sanvp sweep ARGS` run in folder `dir` (so relative --out paths, and the merged files that name
// them, are the same for every backend); stdout and stderr into dir/NAME.out and dir/NAME.err.
inline int sweep_in(const fs::path& dir, const std::string& name, const std::string& args, const std::string& env = "") {
  return run(fmt::format("cd '{}' && {} {} sweep {} > {}.out 2> {}.err", dir.string(), env, sanvp_bin(), args, name, name));
}

}  // namespace sweep_test
