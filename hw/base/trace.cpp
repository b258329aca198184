#include "trace.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <map>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>

#include "error.hpp"
#include "log.hpp"

extern char** environ;  // for posix_spawnp: vcd2fst gets this process's environment

namespace sanvp {

bool glob_match(const std::string& p, const std::string& t) {
  std::size_t pi = 0, ti = 0, star = std::string::npos, mark = 0;
  while (ti < t.size()) {
    if (pi < p.size() && (p[pi] == '?' || p[pi] == t[ti])) { ++pi; ++ti; }
    else if (pi < p.size() && p[pi] == '*') { star = pi++; mark = ti; }
    else if (star != std::string::npos) { pi = star + 1; ti = ++mark; }
    else return false;
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

Tracer& Tracer::global() {
  static Tracer t;
  return t;
}

void Tracer::configure(const std::string& patterns, Time from, Time to) {
  patterns_.clear();
  std::size_t start = 0;
  while (start <= patterns.size()) {
    auto comma = patterns.find(',', start);
    std::string p = patterns.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!p.empty()) patterns_.push_back(p);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  from_ = from;
  to_ = to;
}

// FST (a name ending in .fst): the tracer writes a VCD beside the target and GTKWave's vcd2fst
// converts it when the trace closes, so both formats hold the same signals and changes.
namespace {

bool is_fst(const std::string& path) {
  return path.size() >= 4 && path.compare(path.size() - 4, 4, ".fst") == 0;
}

// Beside the target, so the conversion never crosses file systems; per process, so two runs
// writing one name never share a temporary.
std::string fst_temp(const std::string& path, const char* suffix) {
  return fmt::format("{}.tmp-{}{}", path, ::getpid(), suffix);
}

bool on_path(const std::string& tool) {
  const char* env = std::getenv("PATH");
  const std::string dirs = env ? env : "/usr/bin:/bin";
  for (std::size_t start = 0; start <= dirs.size();) {
    std::size_t colon = dirs.find(':', start);
    if (colon == std::string::npos) colon = dirs.size();
    const std::string dir = colon > start ? dirs.substr(start, colon - start) : ".";
    if (::access((dir + "/" + tool).c_str(), X_OK) == 0) return true;
    start = colon + 1;
  }
  return false;
}

// Runs vcd2fst (no shell: any file name is safe; its stdout goes to stderr, keeping the
// command's own output clean). Returns "" on success, else what went wrong.
std::string run_vcd2fst(const std::string& vcd, const std::string& fst) {
  std::string in = "--vcdname=" + vcd, out = "--fstname=" + fst;
  char prog[] = "vcd2fst";
  char* argv[] = {prog, in.data(), out.data(), nullptr};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, 2, 1);
  pid_t pid = 0;
  const int err = posix_spawnp(&pid, prog, &fa, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (err != 0) return fmt::format("cannot start vcd2fst: {}", std::strerror(err));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return fmt::format("waiting for vcd2fst: {}", std::strerror(errno));
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  if (WIFEXITED(status)) return fmt::format("vcd2fst exited with status {}", WEXITSTATUS(status));
  return fmt::format("vcd2fst was killed by signal {}", WTERMSIG(status));
}

// Converts the finished temporary VCD into `path` (whole or not at all: vcd2fst writes a
// temporary that is renamed into place). On failure the VCD is kept, so a long run's waves are
// not lost, and an IoError names both files.
void convert_to_fst(const std::string& path) {
  const std::string vcd = fst_temp(path, ".vcd"), fst = fst_temp(path, "");
  std::string why = run_vcd2fst(vcd, fst);
  if (why.empty() && std::rename(fst.c_str(), path.c_str()) != 0)
    why = fmt::format("renaming into place: {}", std::strerror(errno));
  if (why.empty()) {
    ::unlink(vcd.c_str());
    return;
  }
  ::unlink(fst.c_str());
  const std::string kept = path + ".vcd";
  if (std::rename(vcd.c_str(), kept.c_str()) != 0) {
    ::unlink(vcd.c_str());
    throw IoError(fmt::format("--vcd: converting the waves to FST '{}' failed: {}", path, why));
  }
  throw IoError(fmt::format("--vcd: converting the waves to FST '{}' failed: {}; the waves are kept as VCD in '{}'", path, why, kept));
}

}  // namespace

bool Tracer::open(const std::string& path) {
  if (is_fst(path)) {
    check_output_path(path, "--vcd");  // the target's own errors, as for a VCD
    // Before the run, not after it: a missing tool must not cost a simulation.
    if (!on_path("vcd2fst"))
      throw UserError(fmt::format("--vcd: writing FST '{}' needs vcd2fst, which is not on PATH: install the Debian package gtkwave", path));
    out_.open(fst_temp(path, ".vcd"), "--vcd");
  } else {
    out_.open(path, "--vcd");
  }
  path_ = path;
  file_ = out_.get();
  pattern_used_.assign(patterns_.size(), false);
  return true;
}

bool Tracer::pattern_matches(const std::string& p, const std::string& module_path) const {
  // "sw0.*" also enables "sw0" itself, and a bare name enables its whole subtree.
  if (glob_match(p, module_path) || glob_match(p + ".*", module_path)) return true;
  return p.size() > 2 && p.compare(p.size() - 2, 2, ".*") == 0 && module_path == p.substr(0, p.size() - 2);
}

bool Tracer::enabled(const std::string& module_path) const {
  if (patterns_.empty()) return true;
  for (const auto& p : patterns_)
    if (pattern_matches(p, module_path)) return true;
  return false;
}

Tracer::Handle Tracer::declare(const std::string& module_path, const std::string& name, int width,
                               std::uint64_t initial) {
  if (!file_ || header_done_) return kOff;
  if (width < 1 || width > 64)
    throw std::logic_error(fmt::format("VCD: signal {}.{} declared {} bits wide (1..64)", module_path, name, width));
  pattern_used_.resize(patterns_.size(), false);
  bool on = patterns_.empty();
  for (std::size_t i = 0; i < patterns_.size(); ++i)
    if (pattern_matches(patterns_[i], module_path)) on = pattern_used_[i] = true;
  if (!on) return kOff;
  signals_.push_back(Signal{module_path, name, width, initial, {}});
  return static_cast<Handle>(signals_.size() - 1);
}

void Tracer::check_patterns() const {
  if (!file_) return;
  for (std::size_t i = 0; i < patterns_.size(); ++i)
    if (i >= pattern_used_.size() || !pattern_used_[i])
      throw UserError(fmt::format("--trace: pattern '{}' matches no traced signal (module paths look like sw0.p3.in, n1.out)",
                                  patterns_[i]));
}

std::string Tracer::empty_window_warning(Time end) const {
  if (!file_ || from_ < end) return {};
  return fmt::format("--trace-window starts at {}, at or after the end of the run at {}: {} holds no values", format_time(from_),
                     format_time(end), path_);
}

static std::string vcd_id(std::size_t n) {
  std::string id;
  do { id.push_back(static_cast<char>('!' + n % 94)); n /= 94; } while (n);
  return id;
}

void Tracer::write_header() {
  header_done_ = true;
  // A misspelt pattern would otherwise leave an empty VCD without a word.
  for (std::size_t i = 0; i < patterns_.size(); ++i)
    if (i < pattern_used_.size() && !pattern_used_[i])
      log::warn("--trace: pattern '{}' matches no traced module; nothing of it is in {}", patterns_[i], path_);
  fmt::print(file_, "$date sanvp $end\n$version sanvp 0.1 $end\n$timescale 1ps $end\n");
  // Order signals by path so the header is deterministic and scopes nest properly.
  std::vector<std::size_t> order(signals_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return signals_[a].module != signals_[b].module ? signals_[a].module < signals_[b].module : a < b;
  });
  std::vector<std::string> open_scopes;
  auto split = [](const std::string& s) {
    std::vector<std::string> parts;
    std::size_t st = 0;
    while (true) {
      auto d = s.find('.', st);
      parts.push_back(s.substr(st, d == std::string::npos ? std::string::npos : d - st));
      if (d == std::string::npos) break;
      st = d + 1;
    }
    return parts;
  };
  std::size_t n = 0;
  for (std::size_t i : order) {
    auto& s = signals_[i];
    s.id = vcd_id(n++);
    auto parts = split(s.module);
    std::size_t common = 0;
    while (common < open_scopes.size() && common < parts.size() && open_scopes[common] == parts[common]) ++common;
    while (open_scopes.size() > common) { fmt::print(file_, "$upscope $end\n"); open_scopes.pop_back(); }
    for (std::size_t k = common; k < parts.size(); ++k) {
      fmt::print(file_, "$scope module {} $end\n", parts[k]);
      open_scopes.push_back(parts[k]);
    }
    fmt::print(file_, "$var wire {} {} {} $end\n", s.width, s.id, s.name);
  }
  while (!open_scopes.empty()) { fmt::print(file_, "$upscope $end\n"); open_scopes.pop_back(); }
  fmt::print(file_, "$enddefinitions $end\n");
}

void Tracer::write_value(const Signal& s) {
  // A value wider than its declaration would be cut by every viewer (an occupancy of 65536 in
  // 16 bits reads 0): a model that outgrew its signal is an error, never a silently wrong row.
  if (s.width < 64 && (s.value >> s.width) != 0)
    throw SimError(fmt::format("VCD: signal {}.{} has value {} ({:#x}), which does not fit its declared width of {} bits",
                               s.module, s.name, s.value, s.value, s.width));
  if (s.width == 1) {
    fmt::print(file_, "{}{}\n", s.value & 1, s.id);
  } else {
    fmt::print(file_, "b{:b} {}\n", s.value, s.id);
  }
}

void Tracer::emit_instant(Time t, std::vector<Change>& batch) {
  // Several changes of one signal at one instant: only the last one is real (a flit that follows
  // at once overrides the idle mark of the previous one), so VCD never shows zero-width glitches.
  if (t > to_) return;
  // A change behind what is already written would make the file run backwards in time: a model
  // broke change()'s contract (t >= now). Never write a wrong VCD silently.
  if (written_up_to_ != kNever && t <= written_up_to_)
    throw std::logic_error(fmt::format("VCD: a change at {} ps arrived after time {} ps was written", t, written_up_to_));
  written_up_to_ = t;
  if (t < from_) {
    for (const auto& c : batch) signals_[c.h].value = c.v;
    return;
  }
  if (!in_window_) {
    // Entering the window: dump every signal's value as of the window start.
    in_window_ = true;
    fmt::print(file_, "#{}\n$dumpvars\n", from_);
    for (const auto& sig : signals_) write_value(sig);
    fmt::print(file_, "$end\n");
    last_time_written_ = from_;
  }
  // In signal order, so the file depends on what changed, not on the order in which SystemC ran
  // the processes that changed it (a refactor or a new process keeps the VCD byte-identical).
  // Stable: the changes of one signal stay in call order, and the last one is kept.
  std::stable_sort(batch.begin(), batch.end(), [](const Change& a, const Change& b) { return a.h < b.h; });
  for (std::size_t i = 0; i < batch.size(); ++i) {
    if (i + 1 < batch.size() && batch[i + 1].h == batch[i].h) continue;  // superseded
    auto& s = signals_[batch[i].h];
    if (s.value == batch[i].v) continue;
    s.value = batch[i].v;
    if (t != last_time_written_) {
      fmt::print(file_, "#{}\n", t);
      last_time_written_ = t;
    }
    write_value(s);
  }
}

void Tracer::flush(Time now) {
  if (!file_) return;
  try {
    flush_changes(now);
  } catch (const std::system_error& e) {  // fmt::print on a full disk
    file_ = nullptr;
    out_.abandon();
    throw IoError(fmt::format("--vcd: writing '{}' failed: {}", path_, e.code().message()));
  }
}

void Tracer::flush_changes(Time now) {
  if (!header_done_) write_header();
  std::vector<Change> batch;
  // Strictly before `now`: other processes may still record changes at `now` itself, and one
  // instant is written once, with its settled values (no zero-width glitches).
  while (!queue_.empty() && queue_.top().t < now) {
    const Time t = queue_.top().t;
    batch.clear();
    while (!queue_.empty() && queue_.top().t == t) {
      batch.push_back(queue_.top());
      queue_.pop();
    }
    emit_instant(t, batch);
  }
}

void Tracer::close(Time end) {
  if (!file_) return;
  flush(kNever);
  try {
    if (!in_window_ && from_ <= end) {
      in_window_ = true;
      fmt::print(file_, "#{}\n$dumpvars\n", from_);
      for (const auto& sig : signals_) write_value(sig);
      fmt::print(file_, "$end\n");
      last_time_written_ = from_;
    }
    Time stop = std::min(end, to_);
    if (in_window_ && (last_time_written_ == kNever || stop > last_time_written_)) fmt::print(file_, "#{}\n", stop);
  } catch (const std::system_error& e) {
    file_ = nullptr;
    out_.abandon();
    throw IoError(fmt::format("--vcd: writing '{}' failed: {}", path_, e.code().message()));
  }
  file_ = nullptr;
  out_.commit();
  if (is_fst(path_)) convert_to_fst(path_);
}

}  // namespace sanvp
