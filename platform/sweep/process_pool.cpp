#include "platform/sweep/process_pool.hpp"

#include <chrono>
#include <cmath>
#include <fcntl.h>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <sys/wait.h>
#include <unistd.h>

#include "hw/base/error.hpp"
#include "hw/base/io.hpp"

namespace sanvp {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Starts one child; its stdout and stderr go to `log`.
pid_t launch(const std::vector<std::string>& argv, const std::string& log, const std::string& who) {
  std::vector<char*> a;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw SimError(who + ": fork failed");
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) { dup2(fd, 1); dup2(fd, 2); close(fd); }
    execv(a[0], a.data());
    _exit(127);
  }
  return pid;
}

}  // namespace

std::string self_exe(const std::string& who) {
  std::error_code ec;
  auto p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw UserError(who + ": cannot locate the sanvp executable (/proc/self/exe)");
  return p.string();
}

void print_progress(std::size_t done, std::size_t total, const std::string& label, int exit_code, double seconds, const std::string& log) {
  fmt::print(stderr, "[{}/{}] {}: {} in {:.1f}s\n", done, total, label,
             exit_code == 0 ? "ok" : fmt::format("exit {} (see {})", exit_code, log), seconds);
}

std::vector<ChildResult> run_children(const std::vector<ChildJob>& jobs, int parallel, const std::string& who) {
  if (parallel < 1) throw UserError("--jobs must be at least 1");
  std::vector<ChildResult> res(jobs.size());
  std::vector<Clock::time_point> started(jobs.size());
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0, done = 0;
  while (done < jobs.size()) {
    while (next < jobs.size() && static_cast<int>(running.size()) < parallel) {
      std::error_code ec;
      if (!jobs[next].report.empty()) fs::remove(jobs[next].report, ec);
      if (!jobs[next].rc.empty()) fs::remove(jobs[next].rc, ec);
      started[next] = Clock::now();
      running[launch(jobs[next].argv, jobs[next].log, who)] = next;
      ++next;
    }
    int st = 0;
    const pid_t pid = waitpid(-1, &st, 0);
    if (pid < 0) throw SimError(who + ": waitpid failed");
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    const std::size_t i = it->second;
    running.erase(it);
    res[i].exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    res[i].seconds = std::chrono::duration<double>(Clock::now() - started[i]).count();
    ++done;
    if (!jobs[i].rc.empty())
      write_file_checked(jobs[i].rc, fmt::format("{} {}\n", res[i].exit_code, std::llround(res[i].seconds * 1000)), who);
    print_progress(done, jobs.size(), jobs[i].label, res[i].exit_code, res[i].seconds, jobs[i].log);
  }
  return res;
}

void make_output_folder(const std::string& dir, const std::string& option) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir, ec))
    throw UserError(fmt::format("{}: cannot create the folder '{}'{}", option, dir, ec ? ": " + ec.message() : ""));
}

nlohmann::json read_json_file(const std::string& path) {
  nlohmann::json j;
  std::ifstream f(path);
  if (f) {
    try { f >> j; } catch (const std::exception&) { j = nlohmann::json(); }
  }
  return j;
}

}  // namespace sanvp
