// The stored sweep and the Slurm backend (see slurm_sweep.hpp).
#include "platform/sweep/slurm_sweep.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "hw/base/params.hpp"
#include "platform/sweep/process_pool.hpp"

namespace sanvp {
namespace {

namespace fs = std::filesystem;
constexpr std::size_t kArrayBlock = 1000;  // Slurm's default MaxArraySize is 1001

std::string rc_path(const std::string& out, std::size_t i) { return sweep_point_file(out, i, "rc"); }

// A child's combined stdout and stderr, and its exit code (127: could not be started).
struct Captured {
  int exit_code = 127;
  std::string text;
};

Captured capture(const std::vector<std::string>& argv) {
  int fds[2];
  if (pipe(fds) != 0) throw SimError("sweep: pipe failed");
  std::vector<char*> a;
  for (const auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
  a.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw SimError("sweep: fork failed");
  if (pid == 0) {
    dup2(fds[1], 1); dup2(fds[1], 2); close(fds[0]); close(fds[1]);
    execvp(a[0], a.data());
    _exit(127);
  }
  close(fds[1]);
  Captured c;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) c.text.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int st = 0;
  waitpid(pid, &st, 0);
  c.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
  while (!c.text.empty() && (c.text.back() == '\n' || c.text.back() == '\r')) c.text.pop_back();
  return c;
}

bool in_path(const std::string& prog) {
  const char* path = std::getenv("PATH");
  std::stringstream ss(path ? path : "");
  for (std::string d; std::getline(ss, d, ':');)
    if (!d.empty() && access((d + "/" + prog).c_str(), X_OK) == 0) return true;
  return false;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// "0-5,7,9-12": the array indices (sorted) as Slurm ranges.
std::string array_spec(const std::vector<std::size_t>& idx) {
  std::string s;
  for (std::size_t k = 0; k < idx.size();) {
    std::size_t e = k;
    while (e + 1 < idx.size() && idx[e + 1] == idx[e] + 1) ++e;
    s += fmt::format("{}{}", s.empty() ? "" : ",", idx[k]);
    if (e > k) s += fmt::format("-{}", idx[e]);
    k = e + 1;
  }
  return s;
}

}  // namespace

std::string plan_path(const std::string& out) { return out + "/sweep.plan.json"; }

void write_plan(const StoredSweep& s) {
  nlohmann::json j{{"format", "sanvp-sweep-plan-1"}, {"out", s.output.out},   {"scenario", s.output.file}, {"vary", s.output.vary},
                   {"sets", s.output.sets},          {"cwd", s.cwd},          {"axes", nlohmann::json::array()},
                   {"points", nlohmann::json::array()}};
  for (const auto& ax : s.axes) j["axes"].push_back({{"key", ax.key}, {"values", ax.values}});
  for (std::size_t i = 0; i < s.points.size(); ++i)
    j["points"].push_back({{"set", s.points[i]}, {"argv", s.argv[i]}, {"label", s.labels[i]}});
  write_file_checked(plan_path(s.output.out), j.dump(1) + "\n", "sweep");
}

StoredSweep read_plan(const std::string& dir) {
  const std::string path = plan_path(dir);
  const std::string text = read_file_limited(path, "sweep collect");
  StoredSweep s;
  try {
    const auto j = nlohmann::json::parse(text);
    if (j.at("format") != "sanvp-sweep-plan-1") throw UserError(fmt::format("{}: not a sanvp sweep plan", path));
    s.output = {j.at("out").get<std::string>(), j.at("scenario").get<std::string>(), j.at("vary").get<std::vector<std::string>>(),
                j.at("sets").get<std::vector<std::string>>()};
    s.cwd = j.at("cwd").get<std::string>();
    for (const auto& ax : j.at("axes")) s.axes.push_back({ax.at("key").get<std::string>(), ax.at("values").get<std::vector<std::string>>()});
    for (const auto& p : j.at("points")) {
      s.points.push_back(p.at("set").get<Point>());
      s.argv.push_back(p.at("argv").get<std::vector<std::string>>());
      s.labels.push_back(p.at("label").get<std::string>());
    }
  } catch (const nlohmann::json::exception& e) {
    throw UserError(fmt::format("{}: malformed sweep plan: {}", path, e.what()));
  }
  if (s.points.empty()) throw UserError(fmt::format("{}: the plan has no points", path));
  return s;
}

std::optional<PointResult> point_result(const std::string& out, std::size_t i) {
  std::error_code ec;
  if (!fs::is_regular_file(rc_path(out, i), ec)) return std::nullopt;
  std::stringstream ss(read_file_limited(rc_path(out, i), "sweep", 64));
  std::string code, ms;
  ss >> code >> ms;
  PointResult r;
  try {
    r = PointResult{static_cast<int>(parse_int(code, rc_path(out, i), -1, 255)),
                    static_cast<double>(parse_int(ms, rc_path(out, i), 0, INT64_MAX / 2)) / 1000.0};
  } catch (const UserError&) {
    return std::nullopt;  // a torn or foreign file: the point is not done
  }
  // A failed point keeps its own exit code without a report (refused input writes none); it
  // used to be merged as -1 "no result".
  if (r.exit_code != 0) return r;
  const nlohmann::json rep = read_json_file(sweep_point_file(out, i, "json"));
  if (!rep.is_object() || !rep.contains("status")) return std::nullopt;
  return r;
}

std::vector<int> point_exit_codes(const StoredSweep& s) {
  std::vector<int> codes;
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const auto r = point_result(s.output.out, i);
    codes.push_back(r ? r->exit_code : -1);
  }
  return codes;
}

namespace {

// The folder Slurm tasks see: a copy of this binary (a rebuild during a campaign changes no
// point), each point's argv (NUL-separated, so any argument survives) and the task script.
struct Scratch {
  std::string dir, exe, script;
};

Scratch prepare_scratch(const StoredSweep& s, const std::vector<std::size_t>& todo, const SlurmOptions& o) {
  Scratch sc{fs::absolute(o.scratch).lexically_normal().string(), "", ""};
  make_output_folder(sc.dir, "--scratch");
  sc.exe = sc.dir + "/sanvp";
  std::error_code ec;
  // Copied beside and renamed: tasks still running an older copy keep their file.
  fs::copy_file(self_exe("sweep"), sc.exe + ".new", fs::copy_options::overwrite_existing, ec);
  if (!ec) fs::rename(sc.exe + ".new", sc.exe, ec);
  if (ec) throw UserError(fmt::format("--scratch: cannot copy the sanvp binary to '{}': {}", sc.exe, ec.message()));
  for (std::size_t i : todo) {
    std::string args;
    for (std::size_t k = 0; k < s.argv[i].size(); ++k) args += (k == 0 ? sc.exe : s.argv[i][k]) + '\0';
    write_file_checked(sweep_point_file(sc.dir, i, "args"), args, "--scratch");
  }
  const std::string out = fs::absolute(s.output.out).lexically_normal().string();
  sc.script = sc.dir + "/sweep-task.sh";
  // SANVP_SWEEP_FAIL_ONCE=i (tests): point i's first attempt fails without a result.
  write_file_checked(sc.script, fmt::format(R"SH(#!/bin/bash
# One point of a sanvp sweep per Slurm array task (written by `sanvp sweep --backend slurm`).
i=$((SLURM_ARRAY_TASK_ID + ${{SANVP_SWEEP_BASE:-0}}))
p=$(printf %03d "$i")
scratch={0}
out={1}
mapfile -d '' args < "$scratch/point-$p.args" || exit 1
if [ "${{SANVP_SWEEP_FAIL_ONCE:-}}" = "$i" ] && [ ! -e "$scratch/failed-once-$p" ]; then touch "$scratch/failed-once-$p"; exit 1; fi
t0=$(date +%s%N)
"${{args[@]}}" > "$out/point-$p.log" 2>&1
rc=$?
echo "$rc $(( ($(date +%s%N) - t0) / 1000000 ))" > "$out/point-$p.rc.tmp" && mv "$out/point-$p.rc.tmp" "$out/point-$p.rc"
exit $rc
)SH", shell_quote(sc.dir), shell_quote(out)), "--scratch");
  return sc;
}

// Submits the points `idx` (sorted) as job arrays; returns the job ids.
std::vector<std::string> submit(const Scratch& sc, const StoredSweep& s, const std::vector<std::size_t>& idx, const SlurmOptions& o) {
  std::map<std::size_t, std::vector<std::size_t>> blocks;
  for (std::size_t i : idx) blocks[i / kArrayBlock].push_back(i % kArrayBlock);
  std::vector<std::string> ids;
  for (const auto& [b, rel] : blocks) {
    std::vector<std::string> argv{"sbatch", "--parsable", "--job-name=sanvp-sweep", "--ntasks=1", "--cpus-per-task=1",
                                  "--chdir=" + s.cwd, "--output=" + sc.dir + "/slurm-%A_%a.out",
                                  fmt::format("--export=ALL,SANVP_SWEEP_BASE={}", b * kArrayBlock),
                                  "--array=" + array_spec(rel) + (o.max_parallel > 0 ? fmt::format("%{}", o.max_parallel) : "")};
    if (!o.partition.empty()) argv.push_back("--partition=" + o.partition);
    argv.push_back(sc.script);
    const Captured c = capture(argv);
    const std::string id = c.text.substr(0, c.text.find(';'));
    if (c.exit_code != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
      throw UserError(fmt::format("--backend slurm: sbatch refused the job array{}: {}",
                                  o.partition.empty() ? "" : " (--partition " + o.partition + ")", c.text));
    ids.push_back(id);
  }
  return ids;
}

// True while any of the jobs is pending or running. squeue forgets finished jobs ("Invalid job
// id"); any other failure is retried for a while (a controller restarting).
bool jobs_active(const std::vector<std::string>& ids, int& failures) {
  std::string list;
  for (const auto& id : ids) list += (list.empty() ? "" : ",") + id;
  const Captured c = capture({"squeue", "--noheader", "--format=%i %T", "--jobs=" + list});
  if (c.exit_code == 0) { failures = 0; return !c.text.empty(); }
  if (c.text.find("Invalid job id") != std::string::npos) return false;
  if (++failures > 120) throw SimError("sweep: squeue keeps failing: " + c.text);
  return true;
}

}  // namespace

void slurm_run(const StoredSweep& s, const std::vector<std::size_t>& todo, const SlurmOptions& o, bool submit_only) {
  if (!in_path("sbatch") || !in_path("squeue"))
    throw UserError("--backend slurm: sbatch/squeue not found in PATH (Debian: slurm-client; scripts/slurm_local_cluster.sh starts a test cluster)");
  if (todo.empty()) return;
  const Scratch sc = prepare_scratch(s, todo, o);
  std::error_code ec;
  for (std::size_t i : todo) { fs::remove(sweep_point_file(s.output.out, i, "json"), ec); fs::remove(rc_path(s.output.out, i), ec); }
  std::vector<std::size_t> pending = todo;
  std::vector<std::string> ids = submit(sc, s, pending, o);
  fmt::print(stderr, "sweep: submitted {} point(s) as Slurm job {}\n", pending.size(), fmt::join(ids, ","));
  if (submit_only) return;
  std::size_t done = 0;
  int attempt = 0, failures = 0;
  std::vector<std::size_t> failed;
  while (!pending.empty()) {
    std::this_thread::sleep_for(std::chrono::duration<double>(o.poll_seconds));
    const bool active = jobs_active(ids, failures);  // before the scan: a result written before the end is seen
    std::vector<std::size_t> left;
    for (std::size_t i : pending) {
      const auto r = point_result(s.output.out, i);
      if (r && r->done()) print_progress(++done, todo.size(), s.labels[i], r->exit_code, r->seconds, sweep_point_file(s.output.out, i, "log"));
      else if (r || (!active && !r)) failed.push_back(i);  // ended without a usable result
      else left.push_back(i);
    }
    pending = std::move(left);
    if (active || failed.empty()) continue;
    if (attempt++ >= o.retries) {
      for (std::size_t i : failed) print_progress(++done, todo.size(), s.labels[i], -1, 0, sc.dir + "/slurm-*.out");
      break;
    }
    fmt::print(stderr, "sweep: {} point(s) ended without a result; resubmitting (retry {} of {})\n", failed.size(), attempt, o.retries);
    for (std::size_t i : failed) { fs::remove(sweep_point_file(s.output.out, i, "json"), ec); fs::remove(rc_path(s.output.out, i), ec); }
    ids = submit(sc, s, failed, o);
    pending = std::move(failed);
    failed.clear();
  }
}

}  // namespace sanvp
