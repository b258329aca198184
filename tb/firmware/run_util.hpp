// Running sanvp and native programs from tests: capture stdout/stderr and the exit code.
#pragma once
#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace sanvp::test {

struct Proc {
  std::string out, err;
  int rc = -1;
};

inline std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Runs `cmd` through /bin/sh; stdout and stderr go to temporary files.
inline Proc run(const std::string& cmd) {
  char out_tmpl[] = "/tmp/sanvp_out_XXXXXX";
  char err_tmpl[] = "/tmp/sanvp_err_XXXXXX";
  const int fo = mkstemp(out_tmpl), fe = mkstemp(err_tmpl);
  close(fo);
  close(fe);
  const std::string full = cmd + " >" + out_tmpl + " 2>" + err_tmpl;
  const int st = std::system(full.c_str());
  Proc p;
  p.rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
  p.out = slurp(out_tmpl);
  p.err = slurp(err_tmpl);
  std::remove(out_tmpl);
  std::remove(err_tmpl);
  return p;
}

// The sanvp binary: compiled in by sanvp_add_test (SANVP_BIN) or by this folder's CMake
// (SANVP_BIN_PATH); the environment variable overrides both.
inline std::string sanvp_bin() {
  if (const char* b = std::getenv("SANVP_BIN")) return b;
#if defined(SANVP_BIN)
  return SANVP_BIN;
#elif defined(SANVP_BIN_PATH)
  return SANVP_BIN_PATH;
#else
  return "sanvp";
#endif
}

}  // namespace sanvp::test
