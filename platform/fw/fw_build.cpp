#include "platform/fw/fw_build.hpp"

#include <cerrno>
#include <filesystem>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hw/base/error.hpp"
#include "hw/base/io.hpp"
#include "hw/base/params.hpp"
#include "platform/fw/elf_export.hpp"
#include "platform/fw/linker.hpp"

namespace sanvp::fw {
namespace {

namespace fs = std::filesystem;

// Generated at configure time from firmware/CMakeLists.txt (LANAI_BASE_FLAGS and the tools):
// kBaseFlags, kClangxx, kLdLld, kBuildRuntimeObj, kBuildIncludeDirs, kBinToFwLib, kBinToFwInclude.
#include "fw_toolchain.inc"

struct BuildOptions {
  std::vector<std::string> sources, includes, defines;
  std::string out, map, elf, opt_level, sram = std::to_string(nic::map::kSramDefaultSize), stack = "16384";
  bool debug = false, protocol = false, verbose = false;
};

BuildOptions& bopts() {
  static BuildOptions o;
  return o;
}

struct Toolchain {
  std::string runtime_obj;
  std::vector<std::string> include_dirs;
};

// The installed layout beside this executable (prefix/bin/sanvp, prefix/lib/sanvp/firmware,
// prefix/include/sanvp) when it is there, else the build tree this binary was built in.
Toolchain find_toolchain() {
  std::error_code ec;
  const fs::path bin = fs::read_symlink("/proc/self/exe", ec).parent_path();
  if (!ec) {
    const fs::path rt = bin / kBinToFwLib / "runtime.o", inc = bin / kBinToFwInclude;
    if (fs::is_regular_file(rt, ec) && fs::is_directory(inc / "fw", ec))
      return {fs::weakly_canonical(rt).string(), {fs::weakly_canonical(inc).string()}};
  }
  if (!fs::is_regular_file(kBuildRuntimeObj, ec))
    throw UserError(fmt::format("fw build: the firmware runtime is missing (expected at '{}' or beside the installed sanvp): "
                                "build the target lanai_runtime or install sanvp", kBuildRuntimeObj));
  return {kBuildRuntimeObj, {std::begin(kBuildIncludeDirs), std::end(kBuildIncludeDirs)}};
}

// Runs a tool without a shell; its diagnostics go to our stderr. A failure is a user error
// (the sources do not compile), naming the step.
void run_tool(const std::vector<std::string>& argv, const std::string& step, bool verbose) {
  if (verbose) {
    std::string line;
    for (const auto& a : argv) line += (line.empty() ? "" : " ") + a;
    fmt::print(stderr, "{}\n", line);
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw IoError(fmt::format("fw build: cannot start {}", argv[0]));
  if (pid == 0) {
    execv(args[0], args.data());
    fmt::print(stderr, "fw build: cannot run '{}'\n", argv[0]);
    _exit(127);
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) throw IoError(fmt::format("fw build: waiting for {} failed", argv[0]));
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
    throw UserError(fmt::format("fw build: {} failed (exit {})", step, WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st)));
}

// The per-source flags after the base flags, in add_lanai_firmware's order: FLAGS, INCLUDES, DEFINES, PROTOCOL.
std::vector<std::string> user_flags(const BuildOptions& o) {
  std::vector<std::string> f;
  if (!o.opt_level.empty()) f.push_back("-O" + o.opt_level);
  if (o.debug) f.push_back("-g");
  for (const auto& i : o.includes) f.push_back("-I" + fs::absolute(i).string());
  for (const auto& d : o.defines) f.push_back("-D" + d);
  if (o.protocol) f.push_back("-DSANVP_PROTOCOL_FIRMWARE=1");
  return f;
}

// Compiles every source into `dir`; returns the objects.
std::vector<std::string> compile_all(const BuildOptions& o, const Toolchain& tc, const fs::path& dir) {
  std::vector<std::string> objs;
  for (std::size_t k = 0; k < o.sources.size(); ++k) {
    const std::string& src = o.sources[k];
    std::error_code ec;
    if (!fs::is_regular_file(src, ec)) throw UserError(fmt::format("fw build: source '{}' not found", src));
    const std::string obj = (dir / fmt::format("{}_{}.o", k, fs::path(src).stem().string())).string();
    std::vector<std::string> argv{kClangxx};
    argv.insert(argv.end(), std::begin(kBaseFlags), std::end(kBaseFlags));
    for (const auto& i : tc.include_dirs) argv.push_back("-I" + i);
    for (auto& f : user_flags(o)) argv.push_back(std::move(f));
    for (const std::string a : {"-c", src.c_str(), "-o", obj.c_str()}) argv.push_back(a);
    run_tool(argv, "compiling " + src, o.verbose);
    objs.push_back(obj);
  }
  return objs;
}

LinkOptions link_options(const BuildOptions& o) {
  LinkOptions lo;
  lo.sram_size = static_cast<std::uint32_t>(parse_int(o.sram, "--sram-size", 8, nic::map::kSramMaxSize));
  lo.stack_size = static_cast<std::uint32_t>(parse_int(o.stack, "--stack-size", 8, nic::map::kSramMaxSize));
  return lo;
}

// A private scratch folder for the objects, removed however the build ends.
struct ScratchDir {
  fs::path path;
  ScratchDir() {
    std::string t = (fs::temp_directory_path() / "sanvp-fw-build-XXXXXX").string();
    if (!mkdtemp(t.data())) throw IoError("fw build: cannot create a temporary folder");
    path = t;
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

int run_fw_build() {
  const BuildOptions& o = bopts();
  const LinkOptions lo = link_options(o);
  check_output_path(o.out, "-o");
  if (!o.map.empty()) check_output_path(o.map, "--map");
  if (!o.elf.empty()) check_output_path(o.elf, "--elf");
  const Toolchain tc = find_toolchain();
  ScratchDir tmp;
  std::vector<std::string> inputs = compile_all(o, tc, tmp.path);
  // As add_lanai_firmware: without -g, one ld.lld -r merge (so the image is the same bytes);
  // with -g the objects go to the linker one by one (ld.lld -r rejects the debug relocations).
  if (!o.debug) {
    const std::string merged = (tmp.path / "merged.o").string();
    std::vector<std::string> argv{kLdLld, "-r"};
    argv.insert(argv.end(), inputs.begin(), inputs.end());
    argv.insert(argv.end(), {"-o", merged});
    run_tool(argv, "ld.lld -r", o.verbose);
    inputs = {merged};
  }
  inputs.push_back(tc.runtime_obj);
  const LinkResult res = link(inputs, lo);
  res.image.save(o.out);
  if (!o.map.empty()) write_file_checked(o.map, res.map, "map file");
  if (!o.elf.empty()) write_file_checked(o.elf, image_to_elf(res.image), "ELF file");
  return 0;
}

CLI::App* add_fw_build_command(CLI::App* fw) {
  auto& o = bopts();
  auto* b = fw->add_subcommand("build", "build a firmware image from C++ sources (the flags, runtime and linker of add_lanai_firmware)");
  b->add_option("sources", o.sources, "firmware C++ sources")->required();
  b->add_option("-o", o.out, "image to write")->required();
  b->add_option("-O", o.opt_level, "optimization level (default 2)")->check(CLI::IsMember({"0", "1", "2", "3", "s", "z"}));
  b->add_flag("-g", o.debug, "debug information: the image carries DWARF (see --elf)");
  // One value per occurrence, so `-D X=1 main.cpp` leaves main.cpp to the sources.
  b->add_option("-I", o.includes, "include directory (repeatable)")->allow_extra_args(false);
  b->add_option("-D", o.defines, "preprocessor definition X or X=1 (repeatable)")->allow_extra_args(false);
  b->add_option("--sram-size", o.sram, "SRAM size in bytes the image is linked for")->capture_default_str();
  b->add_option("--stack-size", o.stack, "stack size in bytes")->capture_default_str();
  b->add_flag("--protocol", o.protocol, "protocol firmware: fw::time_ns() (global time) is not available");
  b->add_option("--map", o.map, "also write the map file");
  b->add_option("--elf", o.elf, "also write the image as ELF with its DWARF (llvm-dwarfdump, llvm-objdump -l)");
  b->add_flag("-v,--verbose", o.verbose, "print each tool command");
  return b;
}

}  // namespace sanvp::fw
