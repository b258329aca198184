#include "platform/bench/bench_runner.hpp"

#include <cerrno>
#include <chrono>
#include <fmt/format.h>
#include <poll.h>
#include <regex>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hw/base/error.hpp"

namespace sanvp::bench {
namespace {

struct Child {
  int status = 0;
  bool started = false;
  std::string out, err;
  double wall_s = 0, cpu_s = 0;
  long peak_rss_kb = 0;
};

// Reads both pipes until the child closes them (poll: neither can fill up and block it).
void drain(int out_fd, int err_fd, std::string& out, std::string& err) {
  pollfd p[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* dst[2] = {&out, &err};
  int open = 2;
  char buf[65536];
  while (open > 0) {
    if (poll(p, 2, -1) < 0) {
      if (errno == EINTR) continue;
      throw SimError("bench: poll failed");
    }
    for (int i = 0; i < 2; ++i) {
      if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = read(p[i].fd, buf, sizeof buf);
      if (n > 0) { dst[i]->append(buf, static_cast<std::size_t>(n)); continue; }
      if (n < 0 && errno == EINTR) continue;
      close(p[i].fd);
      p[i].fd = -1;
      --open;
    }
  }
}

// Runs argv[0] with argv; its own rusage (wait4) gives CPU time and peak RSS of that child alone.
Child spawn(const std::vector<std::string>& argv) {
  int o[2], e[2];
  if (pipe(o) != 0 || pipe(e) != 0) throw SimError("bench: pipe failed");
  std::vector<char*> a;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) throw SimError("bench: fork failed");
  if (pid == 0) {
    dup2(o[1], 1);
    dup2(e[1], 2);
    close(o[0]); close(o[1]); close(e[0]); close(e[1]);
    execv(a[0], a.data());
    const std::string msg = fmt::format("cannot execute '{}'\n", a[0]);
    (void)!write(2, msg.data(), msg.size());
    _exit(127);
  }
  close(o[1]);
  close(e[1]);
  Child c;
  c.started = true;
  drain(o[0], e[0], c.out, c.err);
  rusage ru{};
  while (wait4(pid, &c.status, 0, &ru) < 0)
    if (errno != EINTR) throw SimError("bench: wait4 failed");
  c.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  c.cpu_s = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1e-6 * static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  c.peak_rss_kb = ru.ru_maxrss;
  return c;
}

std::string status_text(int st) {
  if (WIFEXITED(st)) return fmt::format("exit code {}", WEXITSTATUS(st));
  if (WIFSIGNALED(st)) return fmt::format("killed by signal {}", WTERMSIG(st));
  return "stopped";
}

// The child's result: its last stdout line that parses as JSON naming the case.
nlohmann::json result_line(const std::string& out, const std::string& name) {
  std::size_t end = out.size();
  while (end > 0) {
    const std::size_t begin = out.rfind('\n', end - 1);
    const std::size_t from = begin == std::string::npos ? 0 : begin + 1;
    const std::string line = out.substr(from, end - from);
    if (!line.empty() && line[0] == '{') {
      const auto j = nlohmann::json::parse(line, nullptr, false);
      if (!j.is_discarded() && j.is_object() && j.value("case", "") == name && j.contains("counts")) return j;
    }
    if (begin == std::string::npos) break;
    end = begin;
  }
  return nlohmann::json();
}

std::string tail(const std::string& s, std::size_t max) {
  std::string t = s.size() > max ? "..." + s.substr(s.size() - max) : s;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  return t;
}

Sample run_one(const std::string& exe, const BenchCase& c, const BenchOptions& o) {
  std::vector<std::string> argv = {exe, "bench", "--case", c.name, "--seed", std::to_string(o.seed)};
  if (o.quick) argv.push_back("--quick");
  const Child ch = spawn(argv);
  Sample s;
  nlohmann::json j = result_line(ch.out, c.name);
  const bool exited_ok = WIFEXITED(ch.status) && WEXITSTATUS(ch.status) == 0;
  if (!exited_ok || j.is_null()) {
    s.error = fmt::format("'{}' bench --case {}: {}{}\n{}", exe, c.name, exited_ok ? "" : status_text(ch.status) + ", ",
                          j.is_null() ? "no result line on stdout" : "", tail(ch.err.empty() ? ch.out : ch.err, 2000));
    return s;
  }
  j["cpu_s"] = ch.cpu_s;
  j["wall_s"] = ch.wall_s;
  j["peak_rss_kb"] = ch.peak_rss_kb;
  s.ok = true;
  s.result = std::move(j);
  return s;
}

// The best run: least CPU in the measured phase (the BTIN cases: least wall time, their figure).
void pick_best(const BenchCase& c, CaseRuns& r) {
  const bool by_wall = c.kind == Kind::BtinExperiment || c.kind == Kind::BtinFlit;
  double best = 0;
  for (std::size_t i = 0; i < r.runs.size(); ++i) {
    if (!r.runs[i].ok) continue;
    const auto& j = r.runs[i].result;
    const double v = by_wall ? j.value("wall_s", 0.0) : j["counts"].value("sim_cpu_s", 0.0);
    if (r.best < 0 || v < best) { best = v; r.best = static_cast<int>(i); }
  }
}

void progress(const BenchCase& c, const char* who, int rep, int reps, const Sample& s) {
  fmt::print(stderr, "bench: {} ({}{}): {}\n", c.name, who, reps > 1 ? fmt::format(", run {}/{}", rep + 1, reps) : "",
             s.ok ? fmt::format("{:.2f} s CPU, {:.2f} s wall", s.result.value("cpu_s", 0.0), s.result.value("wall_s", 0.0)) : "FAILED");
}

}  // namespace

void check_binary(const std::string& path, const std::string& option) {
  struct stat st{};
  if (stat(path.c_str(), &st) != 0) throw UserError(fmt::format("{}: '{}' does not exist", option, path));
  if (!S_ISREG(st.st_mode) || access(path.c_str(), X_OK) != 0)
    throw UserError(fmt::format("{}: '{}' is not an executable file", option, path));
}

std::vector<const BenchCase*> select_cases(const std::string& only) {
  std::regex re;
  try {
    re = std::regex(only.empty() ? ".*" : only, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw UserError(fmt::format("--only: '{}' is not a valid regular expression ({})", only, e.what()));
  }
  std::vector<const BenchCase*> v;
  std::string names;
  for (const auto& c : bench_cases()) {
    names += (names.empty() ? "" : ", ") + c.name;
    if (std::regex_search(c.name, re)) v.push_back(&c);
  }
  if (v.empty()) throw UserError(fmt::format("--only: '{}' matches no case (cases: {})", only, names));
  return v;
}

std::vector<CaseResult> run_cases(const std::vector<const BenchCase*>& cases, const BenchOptions& o, const std::string& exe) {
  std::vector<CaseResult> res(cases.size());
  for (std::size_t j = 0; j < cases.size(); ++j) res[j].c = cases[j];
  // Round by round over all cases, alternating this and the other binary (and which goes
  // first): a slow phase of a shared machine then falls on both binaries and on several cases,
  // not on every run of one case (the size series' ratios to mesh16 compare cases).
  for (int i = 0; i < o.repeat; ++i) {
    for (CaseResult& r : res) {
      for (int k = 0; k < (o.against.empty() ? 1 : 2); ++k) {
        const bool other = (k + i) % 2 == 1 && !o.against.empty();
        CaseRuns& runs = other ? r.other : r.self;
        runs.runs.push_back(run_one(other ? o.against : exe, *r.c, o));
        progress(*r.c, other ? "other" : "this", i, o.repeat, runs.runs.back());
      }
    }
  }
  for (CaseResult& r : res) {
    pick_best(*r.c, r.self);
    pick_best(*r.c, r.other);
  }
  return res;
}

}  // namespace sanvp::bench
